#!/usr/bin/env bash
# Scaffolds a library or app in the workspace's conventions.
#   tools/new-project.sh lib <name> <scope> "<description>"
#   tools/new-project.sh app <name> <scope> "<description>"
set -euo pipefail
kind=$1 name=$2 scope=$3 desc=$4
dir=$([ "$kind" = lib ] && echo libs || echo apps)/$name
[ -e "$dir" ] && { echo "$dir exists" >&2; exit 1; }
mkdir -p "$dir/src"
cfg=$([ "$kind" = lib ] && echo tsconfig.lib.json || echo tsconfig.app.json)
if [ "$kind" = lib ]; then
cat > "$dir/package.json" <<JSON
{
  "name": "@regatta/$name",
  "version": "0.1.0",
  "private": true,
  "description": "$desc",
  "type": "module",
  "main": "./dist/index.js",
  "types": "./dist/index.d.ts",
  "exports": {
    ".": {
      "@regatta/source": "./src/index.ts",
      "types": "./dist/index.d.ts",
      "import": "./dist/index.js",
      "default": "./dist/index.js"
    },
    "./package.json": "./package.json"
  },
  "nx": { "tags": ["type:lib", "scope:$scope"] },
  "dependencies": {}
}
JSON
else
cat > "$dir/package.json" <<JSON
{
  "name": "@regatta/$name",
  "version": "0.1.0",
  "private": true,
  "description": "$desc",
  "type": "module",
  "nx": {
    "tags": ["type:app", "scope:$scope"],
    "targets": {
      "build": {
        "executor": "nx:run-commands",
        "outputs": ["{workspaceRoot}/dist/apps/$name"],
        "inputs": ["production", "^production", { "externalDependencies": ["esbuild"] }],
        "options": { "command": "node tools/build/build.mjs $name", "cwd": "{workspaceRoot}" }
      }
    }
  },
  "dependencies": {}
}
JSON
fi
cat > "$dir/tsconfig.json" <<JSON
{
  "extends": "../../tsconfig.base.json",
  "files": [],
  "include": [],
  "references": [{ "path": "./$cfg" }, { "path": "./tsconfig.spec.json" }]
}
JSON
cat > "$dir/$cfg" <<JSON
{
  "extends": "../../tsconfig.base.json",
  "compilerOptions": {
    "rootDir": "src",
    "outDir": "dist",
    "tsBuildInfoFile": "dist/tsconfig.$([ "$kind" = lib ] && echo lib || echo app).tsbuildinfo"
  },
  "include": ["src/**/*.ts"],
  "exclude": ["src/**/*.test.ts"],
  "references": []
}
JSON
cat > "$dir/tsconfig.spec.json" <<JSON
{
  "extends": "../../tsconfig.base.json",
  "compilerOptions": {
    "outDir": "./out-tsc/spec",
    "types": ["node"]
  },
  "include": ["src/**/*.test.ts", "../../tools/testing/provided-context.d.ts"],
  "references": [{ "path": "./$cfg" }]
}
JSON
cat > "$dir/eslint.config.mjs" <<'JS'
import baseConfig from '../../eslint.config.mjs';

export default [...baseConfig];
JS
if [ "$kind" = lib ]; then
  echo "export {};" > "$dir/src/index.ts"
else
  echo "export {};" > "$dir/src/main.ts"
fi
echo "created $dir"
