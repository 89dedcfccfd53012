"""The web app: the director's desk, the tables' phones, the public standings and a JSON API.

:func:`agon.web.app.create_app` builds it; ``agon serve`` runs it with uvicorn.
"""
