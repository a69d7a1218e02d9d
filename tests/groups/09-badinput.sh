# ---------------------------------------------------------------- bad input
group badinput
# poke FILE OFFSET BYTES...: overwrite bytes (decimal offset, hex bytes)
poke() {
  local f=$1 off=$2; shift 2
  local s=""; for b in "$@"; do s="$s\\x$b"; done
  printf "$s" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}
expect_load_error() { # NAME FILE MESSAGE(regex, after "wpusim: FILE: ") [STATUS]
  run "bad-$1" 30 "$SIM" "$2"
  if [ $RC -eq "${4:-2}" ] && [ "$(wc -l <"$ERR")" -eq 1 ] && grep -Eq "^wpusim: $2: $3\$" "$ERR"; then ok
  else bad "$1: want exit ${4:-2} and 'wpusim: $2: $3'; got $RC: $(cat "$ERR")"; fi
}
load_case() { # NAME STATUS MESSAGE FILE, FILE made as CASE_MADE says (badinput.tsv)
  local made=(${CASE_MADE:--})
  case ${made[0]} in
    poke) cp "$GOOD" "$4"; poke "$4" "${made[@]:1}" ;;
    head) head -c "${made[1]}" "$GOOD" >"$4" ;;
    mkdir) mkdir -p "$4" ;;
    -) ;;
    *) bad "$1: badinput.tsv: '$CASE_MADE' is not a way to make a file"; return ;;
  esac
  expect_load_error "$1" "$4" "$3" "$2"
}
table_cases tests/groups/badinput.tsv load_case
# The loader reads the header and then only what it names, never a file
# whole: a device or an absurd size is one line, fast, in 1 GB of address space.
expect_load_error_lim() { # NAME FILE MESSAGE(regex)
  run "bad-$1" 30 bash -c 'ulimit -v 1000000 && exec "$@"' _ "$SIM" "$2"
  if [ $RC -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] && grep -Eq "^wpusim: $2: $3\$" "$ERR"; then ok
  else bad "$1 (in 1 GB): want exit 2 and 'wpusim: $2: $3'; got $RC: $(head -c 300 "$ERR")"; fi
}
expect_load_error_lim dev-zero /dev/zero "not a regular file \(a character device\); wpusim loads an ELF executable"
mkfifo "$T/fifo.elf"; expect_load_error_lim fifo "$T/fifo.elf" "not a regular file \(a pipe or FIFO\); wpusim loads an ELF executable"
# a 3 GB sparse file whose data segment claims 1.25 GiB of it
cp "$GOOD" "$T/huge.elf"; truncate -s 3G "$T/huge.elf"; poke "$T/huge.elf" 100 00 00 00 50 00 00 00 50
expect_load_error_lim huge-data "$T/huge.elf" "segments hold 1280 MiB of file data \(to segment 1\); wpusim loads at most 1024 MiB"
rm -f "$T/huge.elf"
# a symbol table of 2 GB in a sparse file (section 4's size at 0x2170 + 4 x 40 + 20)
cp "$GOOD" "$T/hugesym.elf"; truncate -s 3G "$T/hugesym.elf"; poke "$T/hugesym.elf" $((0x2170 + 180)) 00 00 00 80
expect_load_error_lim huge-symtab "$T/hugesym.elf" "symbol and string tables of 2048 MiB; wpusim reads at most 256 MiB of them"
rm -f "$T/hugesym.elf"
printf 'hello\n' >"$T/text.elf"; expect_load_error not-elf "$T/text.elf" "not an ELF file \(bad magic number\)"
sz=$(stat -c %s "$GOOD"); head -c $((sz - 10)) "$GOOD" >"$T/trunctail.elf"; expect_load_error trunc-tail "$T/trunctail.elf" "truncated: section headers end at byte $sz, file has $((sz - 10)) bytes"
cp "$B/cfg/diamond.elf" "$T/bigcode.elf"; poke "$T/bigcode.elf" 72 00 00 00 10
expect_load_error code-span "$T/bigcode.elf" "executable segments span 0x00010000-0x1000ffff, 256 MiB; wpusim pre-decodes at most 64 MiB of code"
# a 1.5 GiB .bss stays sparse: loads and runs at once
cp "$GOOD" "$T/bigbss.elf"; poke "$T/bigbss.elf" 104 00 00 00 60
run bigbss 20 "$SIM" --quiet --threads 2 "$T/bigbss.elf"
if [ $RC -eq 0 ]; then ok; else bad "1.5 GiB .bss: exit $RC $(head -c 300 "$ERR")"; fi
