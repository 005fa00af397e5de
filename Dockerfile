# syntax=docker/dockerfile:1
# The api image: the Node entrypoint (functions/node.ts) on the official Node 22 image. A build stage
# bundles the server with esbuild (.server/, what `npm start` runs: about a third of the start-up time of
# the sources; docs/architecture.md, "Start-up"); the final image has production dependencies only, the
# sources (the fallback, and the migrations and scripts the CLI runs) and that bundle. The `node`
# devDependency of package.json (the toolchain pin for developer machines) is never installed here: the
# image's own node runs the app.
#
#   docker build --build-arg APP_VERSION=1.4.0 -t trading-journal-api .
#
# APP_VERSION (optional) stamps lib/build-stamp.json, the version GET /api/health reports. Without it the
# stamp in the source tree stays. At run time APP_VERSION set in the environment overrides the stamp, and
# APP_VERSION set blank drops the version field; leave it unset to report the stamp.
FROM node:22-alpine AS build

WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY functions ./functions
COPY lib ./lib
COPY scripts ./scripts
# Stamped before the bundle is built: the bundle carries the stamp, and is newer than every source.
ARG APP_VERSION=
RUN if [ -n "$APP_VERSION" ]; then \
      node -e 'require("node:fs").writeFileSync("lib/build-stamp.json", JSON.stringify({ version: process.env.APP_VERSION }) + "\n")'; \
    fi
RUN node scripts/build-server.ts

FROM node:22-alpine

WORKDIR /app

# Type stripping runs .ts without a flag from Node 22.18 on; an older cached node:22 image fails here, not at start.
RUN node -e 'const [major, minor] = process.versions.node.split(".").map(Number); if (major === 22 && minor < 18) { console.error(`Node ${process.versions.node} cannot run functions/node.ts: pull a newer node:22-alpine (22.18 or later)`); process.exit(1); }'

COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY functions ./functions
COPY lib ./lib
COPY migrations ./migrations
COPY scripts ./scripts
# "What's new" on a closed network shows the release notes the instance ships (lib/changelog/node.ts).
COPY CHANGELOG.md ./
# The stamp and the bundle from the build stage, after the sources. functions/node.ts runs the bundle when it
# is newer than every source file and folder (else it starts from source): copying the stamp in touches the
# lib folder, so the bundle's time is set last.
COPY --from=build /app/lib/build-stamp.json ./lib/build-stamp.json
COPY --from=build /app/.server ./.server
RUN touch .server/server.mjs

ARG APP_VERSION=
LABEL org.opencontainers.image.title="trading-journal-api" \
      org.opencontainers.image.version="${APP_VERSION}" \
      org.opencontainers.image.licenses="AGPL-3.0-only"

# Configuration comes from the environment only: .env is excluded from the build context (.dockerignore).
USER node
EXPOSE 3100
CMD ["node", "functions/node.ts"]
