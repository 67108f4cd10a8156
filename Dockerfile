# Hafatra: one image for both processes (`hafatra api`, `hafatra worker`).
# Postgres and Redis are external (DATABASE_URL, REDIS_URL): see docker-compose.yml.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# `hafatra mcp` talks to the API through the TypeScript client.
COPY clients/typescript/src ./clients/typescript/src
COPY bench ./bench
# npm run build is scripts/build.mjs (tsc, then the dashboard with vite).
COPY scripts ./scripts
COPY dashboard ./dashboard
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY lua ./lua
COPY src/db/migrations ./src/db/migrations
USER node
EXPOSE 3000
ENTRYPOINT ["node", "bin/hafatra.js"]
CMD ["api"]
