# uno serve in a container: the pure-Python build with the PostgreSQL extra (docs/DEPLOY.md).
#   docker build -t unoengine .
#   docker run -p 8000:8000 -e UNO_DB=postgresql://uno:secret@db/uno unoengine
# Without UNO_DB the tables are kept in SQLite under /data (mount a volume there).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 UNOENGINE_PURE=1 XDG_DATA_HOME=/data
WORKDIR /app
COPY pyproject.toml setup.py README.md LICENSE ./
COPY src ./src
RUN pip install --no-cache-dir ".[postgres]" \
    && useradd --system --create-home --home-dir /home/uno uno \
    && mkdir -p /data && chown uno /data
USER uno
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s \
    CMD python -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"
CMD ["uno", "serve", "--host", "0.0.0.0", "--port", "8000"]
