# syntax=docker/dockerfile:1
# Imprest's production image (README "Self-hosting (Docker)"): one process serving the web app, the
# API, socket.io and /api/docs on port 3000, as `npm start` does. With DATABASE_URL it uses that
# PostgreSQL; without it, its own embedded one in the /data volume (with the local file store).
# Debian, not Alpine: the embedded-postgres binaries are built against glibc.

ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
# Every workspace's package.json and the lockfile first: `npm ci` is cached until they change.
COPY package.json package-lock.json .npmrc ./
COPY packages/domain/package.json packages/domain/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY . .
# The production builds (the web app: type check, then vite; the server: one esbuild bundle,
# docs/decisions/0020), stamped as scripts/start.mjs stamps them.
RUN npm run build && date -u +%FT%TZ > apps/web/dist/.build-stamp \
  && date -u +%FT%TZ > apps/server/dist/.build-stamp
# Only the runtime dependencies (tsx stays one: `npm run backup` and `restore` run through it).
RUN npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json /app/tsconfig.base.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages/domain ./packages/domain
COPY --from=build /app/apps/server ./apps/server
COPY --from=build /app/apps/web/package.json ./apps/web/package.json
COPY --from=build /app/apps/web/dist ./apps/web/dist
# `npm run backup` and `npm run restore` inside the container.
COPY --from=build /app/scripts ./scripts
# The code stays root's and read-only to the app; only the data folder is the app's own.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# Liveness only (GET /healthz); a load balancer should probe /readyz (database, migrations, Redis, jobs).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# What `npm start` runs once the web app and the server are built; node as PID 1 gets SIGTERM and shuts down
# gracefully (up to 25 s: give `docker stop` 35 s, not its default 10 s, as compose.yaml does).
CMD ["node", "--max-semi-space-size=8", "apps/server/dist/main.js"]
