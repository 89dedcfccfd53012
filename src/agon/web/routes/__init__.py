"""The app's routers: public pages, the director's desk, the table face and the JSON API."""
