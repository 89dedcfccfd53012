"""The floor ``bench/web_load.py`` compares agon with: a hello-world FastAPI app, served by the
same uvicorn (uvloop, httptools) as ``agon serve``, answering the path the phones poll.

    python -m uvicorn web_floor:app --app-dir bench --port 8001
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

app = FastAPI()


@app.get("/p/{slug}", response_class=HTMLResponse)
async def hello(slug: str) -> str:
    return "<!doctype html><p>Hello, Player</p>"
