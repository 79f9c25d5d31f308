#!/usr/bin/env bash
# Installs what the build needs on a fresh Debian machine, then the npm packages.
#   setup.sh                 Emscripten, Eigen, CMake, g++, GoogleTest, clang-format, clang and libFuzzer, NumPy, xz, npm ci
#   setup.sh --with-browser  also Chromium and fonts (Latin + CJK) for the browser tests
#   setup.sh --with-torch    also Debian's PyTorch 1.13, to run the generated PyTorch scripts
#   setup.sh --with-training also PyTorch, OpenBLAS and the fortunes texts, to retrain the tiny model
#                            (tests/reference/tiny/train.py; CI does not train: the weights are committed)
#   setup.sh --with-jupyter  also Debian's Jupyter (nbconvert, ipykernel), to run the notebook recipe
#   setup.sh --with-vitepress  also VitePress 1.6 in build/vitepress, to build the VitePress recipe
#   setup.sh --with-docusaurus also Docusaurus 3 (classic preset, React 19, and Docusaurus Faster: rspack,
#                              SWC, Lightning CSS) in build/docusaurus, for its recipe built by webpack and by rspack
#   setup.sh --with-astro      also Astro 5 in build/astro, for its recipe
#   setup.sh --with-hexo       also Hexo 7 (EJS, Stylus, Markdown, the home page and the landscape theme) in build/hexo
#   setup.sh --with-mkdocs     also Debian's MkDocs and MkDocs Material, for their recipe
# As root it runs apt-get itself; otherwise it prints the exact command to run.
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
command -v emcc >/dev/null 2>&1 || need+=(emscripten)
[ -f /usr/include/eigen3/Eigen/Dense ] || need+=(libeigen3-dev)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v make >/dev/null 2>&1 || need+=(make)
[ -f /usr/include/gtest/gtest.h ] || need+=(libgtest-dev)
command -v clang-format >/dev/null 2>&1 || need+=(clang-format)
command -v clang++ >/dev/null 2>&1 || need+=(clang)
# libFuzzer and the sanitizer runtimes, for web/scripts/fuzz.sh
[ -f "$(clang++ -print-file-name="libclang_rt.fuzzer-$(uname -m).a" 2>/dev/null)" ] || need+=(libclang-rt-14-dev)
# xz compresses the single-file builds' inlined wasm (web/scripts/build-single.js)
command -v xz >/dev/null 2>&1 || need+=(xz-utils)
# NumPy for Debian's python3: the tests read the CLI's .npz and JSON (and the page's .npz) back in it
/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1 || need+=(python3-numpy)
# The site generators are not devDependencies: their bundlers list native packages for every platform,
# and the npm registry this machine reaches lacks some, so a lock file written here cannot carry them and
# `npm ci` refuses it. Each recipe test gets its own install, outside the locked tree, at pinned versions
# (npm install names each package with its exact version), redone only when the list below changes.
declare -A SITES=(
  [vitepress]='vitepress@1.6.4'
  [docusaurus]='@docusaurus/core@3.10.2 @docusaurus/preset-classic@3.10.2 @docusaurus/faster@3.10.2 react@19.2.0 react-dom@19.2.0'
  [astro]='astro@5.18.2'
  [hexo]='hexo@7.3.0 hexo-renderer-ejs@2.0.0 hexo-renderer-stylus@3.0.1 hexo-renderer-marked@7.0.1 hexo-theme-landscape@1.1.0 hexo-generator-index@4.0.0'
)
sites=()
with_training=0
for flag in "$@"; do
  case "$flag" in
    --with-browser)
      command -v chromium >/dev/null 2>&1 || need+=(chromium)
      [ -d /usr/share/fonts/truetype/wqy ] || need+=(fonts-wqy-microhei)
      [ -d /usr/share/fonts/truetype/liberation ] || need+=(fonts-liberation)
      ;;
    --with-torch)
      /usr/bin/python3 -c 'import torch' >/dev/null 2>&1 || need+=(python3-torch)
      ;;
    --with-training)
      with_training=1
      /usr/bin/python3 -c 'import torch' >/dev/null 2>&1 || need+=(python3-torch)
      [ -f /usr/share/games/fortunes/fortunes ] || need+=(fortunes)
      [ -f /usr/share/games/fortunes/tang300 ] || need+=(fortunes-zh)
      [ -d /usr/lib/x86_64-linux-gnu/openblas-pthread ] || need+=(libopenblas0-pthread)
      ;;
    --with-jupyter)
      [ -x /usr/bin/jupyter-nbconvert ] || need+=(jupyter-nbconvert)
      /usr/bin/python3 -c 'import ipykernel' >/dev/null 2>&1 || need+=(python3-ipykernel)
      ;;
    --with-vitepress | --with-docusaurus | --with-astro | --with-hexo) sites+=("${flag#--with-}") ;;
    --with-mkdocs)
      command -v mkdocs >/dev/null 2>&1 || need+=(mkdocs)
      /usr/bin/python3 -c 'import material' >/dev/null 2>&1 || need+=(mkdocs-material)
      ;;
    *) echo "setup: unknown flag $flag" >&2; exit 2 ;;
  esac
done

if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing Debian packages: ${need[*]}"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
  else
    echo "setup: missing Debian packages: ${need[*]}" >&2
    echo "setup: install them with:  sudo apt-get install -y ${need[*]}" >&2
    exit 1
  fi
fi

# npm packages, exactly as locked; skipped when node_modules is current.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

# Installing OpenBLAS makes it the system's BLAS; the fixtures come from Debian's reference BLAS,
# so it is set back (train.py preloads OpenBLAS for itself).
if [ "$with_training" = 1 ] && [ "$(id -u)" = 0 ] && [ -f /usr/lib/x86_64-linux-gnu/blas/libblas.so.3 ]; then
  update-alternatives --quiet --set libblas.so.3-x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/blas/libblas.so.3
  update-alternatives --quiet --set liblapack.so.3-x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3
fi

# build/NAME/version holds the list installed; its seconds are printed, to keep CI's time in view.
for site in "${sites[@]}"; do
  if [ "$(cat "build/$site/version" 2>/dev/null)" != "${SITES[$site]}" ]; then
    rm -rf "build/$site"
    mkdir -p "build/$site"
    start=$SECONDS
    # shellcheck disable=SC2086 # the list is words
    npm install --prefix "build/$site" --no-save --no-package-lock --no-audit --no-fund ${SITES[$site]}
    echo "${SITES[$site]}" >"build/$site/version"
    echo "setup: $site installed in $((SECONDS - start)) s"
  fi
done
