"""Invitation and reset links by e-mail, when the host configured SMTP (off by default).

A one-time link is always shown to whoever made it (no mail server needed). With
``AGON_SMTP_URL`` set — ``smtp://[USER:PASSWORD@]HOST[:PORT][?from=ADDRESS]`` (STARTTLS when the
server offers it) or ``smtps://…`` (TLS from the start) — it is also mailed to the person. A mail
that cannot be sent is logged; the link on the page still works.
"""

from __future__ import annotations

import logging
import smtplib
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

#: Seconds to wait for the mail server.
SMTP_TIMEOUT = 10
SCHEMES = ("smtp", "smtps")


def check_smtp_url(value: str) -> str:
    """``value`` if it is a usable SMTP URL, else :class:`ValueError` saying why.

    >>> check_smtp_url("smtp://mail.example.org:587?from=agon@example.org")
    'smtp://mail.example.org:587?from=agon@example.org'
    """
    url = value.strip()
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (a port that is not a number raises here)
    except ValueError:
        raise ValueError("not a URL") from None
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise ValueError("not smtp://HOST or smtps://HOST")
    return url


def send_link(smtp_url: str, *, to: str, subject: str, text: str) -> bool:
    """Mail ``text`` to ``to``; whether the server took it (a failure is logged, not raised)."""
    parts = urlsplit(smtp_url)
    sender = parse_qs(parts.query).get("from", [f"agon@{parts.hostname}"])[0]
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    message.set_content(text)
    try:
        if parts.scheme == "smtps":
            server: smtplib.SMTP = smtplib.SMTP_SSL(
                parts.hostname or "", parts.port or 465, timeout=SMTP_TIMEOUT
            )
        else:
            server = smtplib.SMTP(parts.hostname or "", parts.port or 587, timeout=SMTP_TIMEOUT)
        with server:
            if parts.scheme == "smtp":
                server.ehlo()
                if server.has_extn("starttls"):
                    server.starttls()
            if parts.username:
                server.login(unquote(parts.username), unquote(parts.password or ""))
            server.send_message(message)
    except (OSError, smtplib.SMTPException) as exc:
        logging.getLogger("agon.web").warning("mail to %s not sent: %s", to, exc)
        return False
    return True


def mail_link(smtp_url: str | None, *, to: str, url: str, what: str) -> bool:
    """Mail a one-time link (``what``: one line saying what it opens) if SMTP is configured;
    whether it was sent."""
    if smtp_url is None:
        return False
    text = f"{what}\n\n{url}\n\nThe link works once. If you did not expect it, ignore this mail."
    return send_link(smtp_url, to=to, subject=f"agon: {what}", text=text)
