"""The service layer: keyword-only functions over a SQLAlchemy session, with real return types.

The command line (``agon tournament …``) and the web app are two faces on exactly these functions.
Every change goes through :func:`agon.services.core.record`: one transaction appends a journal entry
and applies it to the projection tables, or — on any error — changes nothing.
"""
