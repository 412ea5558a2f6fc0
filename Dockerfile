# syntax=docker/dockerfile:1
# Voice Calling API image. Every step below is also run outside Docker by scripts/docker-equivalent.sh, which is
# how it is exercised where no Docker engine exists.

# ---- Build stage: every dependency, compile TypeScript to dist/. Nothing from here ships except dist/.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts are needed to compile (the only allowed one unpacks the embedded PostgreSQL for local demos).
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
# The web console (Vite) is built into dist/console by the same npm run build.
COPY console ./console
RUN npm run build

# ---- Runtime stage: production dependencies only, non-root, health-checked.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# --omit=optional leaves out the embedded PostgreSQL binaries (~100 MB): in production DATABASE_URL is required,
# so they are never used. --ignore-scripts: nothing to build or download at install time.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The node image's unprivileged user; the app writes nothing to disk.
USER node
EXPOSE 3000
# Liveness only: /health/ready also checks PostgreSQL and Redis, which is the orchestrator's readiness concern.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself (graceful shutdown, exit 0).
CMD ["node", "dist/main.js"]
