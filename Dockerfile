# syntax=docker/dockerfile:1
# The server image: what CI's release test runs (scripts/release.mjs, then `node dist/cli.js start`), nothing else.
#   docker build -t svc-conversations .
#   docker run -p 3000:3000 -e DATABASE_URL=postgres://… svc-conversations
# Without DATABASE_URL it keeps the embedded database in the /data volume.

# Node 20 reached its end of life in April 2026: the image runs a maintained LTS, pinned to a release so a rebuild
# is the same image (bump NODE_IMAGE deliberately; the packages' `engines` accept Node >= 20.19).
ARG NODE_IMAGE=node:22.20.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
ENV CI=true
# pnpm at the version package.json's packageManager names (npm, not corepack, as on CI).
RUN npm install -g pnpm@10.34.8
WORKDIR /src
COPY . .
RUN pnpm install --frozen-lockfile && node scripts/release.mjs --out /release

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    SVC_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /release /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# Liveness: the process answers (database or not). Orchestrators route traffic on /readyz instead.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles SIGTERM itself: stop accepting, finish in-flight work (SVC_SHUTDOWN_TIMEOUT_MS, 25 s), exit 0.
# Give it that long: `docker stop -t 30`, or stop_grace_period in compose.yaml.
STOPSIGNAL SIGTERM
CMD ["node", "dist/cli.js", "start"]
