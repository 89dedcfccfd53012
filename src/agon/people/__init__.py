"""People and their roles (issue 27): who may do what, as pure rules (no database, no web).

A server's people have accounts (an e-mail, a name, an Argon2 password hash kept by
:mod:`agon.services.people`). A person may be the server's **admin**, the **organiser** of an
organisation (a club or a federation: its tournaments, granting roles) and, per tournament, its
**director** (everything), a **referee** (results, corrections, disputes, sanctions, rulings) or a
**scorekeeper** (enter and confirm results only). Anything else is refused.

Modules:

- ``roles`` — the roles, the actions, the matrix of which role may do which action, and a person's
  grants (scoped to the server, an organisation or a tournament) resolved for one tournament
- ``emails`` — the one check of an e-mail address as an account's login
"""
