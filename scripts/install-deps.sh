#!/bin/bash
# Installs what cyclescope needs to build and test on Debian 12, with apt-get.
# Does nothing when everything is already there. Uses sudo when not root.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  gcc-riscv64-linux-gnu libc6-dev-riscv64-cross binutils-riscv64-linux-gnu qemu-user
  # C++ guests, static and dynamically linked (tests skip the C++ ones without it)
  g++-riscv64-linux-gnu
  # Fortran guests (libgfortran), static and dynamically linked (tests skip them without it)
  gfortran-riscv64-linux-gnu
  libzstd-dev libinih-dev libcjson-dev liblzma-dev zlib1g-dev libcmocka-dev nettle-dev chromium clang-format
  # the JSON results are validated against docs/result.schema.json (tests/results.cmake)
  python3-jsonschema
  # the test scripts read JSON with jq (tests/profile.cmake, inorder.cmake, profile_cli.sh…) and
  # add fractions with bc (profile_grade.sh): neither is in a minimal Debian 12 image
  jq bc
  # sweeps on real engines (tests/sweep.cmake): GNU parallel runs the emitted job list; a
  # single-node Slurm (controller and node daemon started by the test) runs the array script
  parallel slurmctld slurmd slurm-client munge
)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "cyclescope: not root and no sudo: install ${missing[*]} as root" >&2; exit 1; }
    sudo=sudo
fi
echo "cyclescope: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
