# ---------------------------------------------------------------- bad input
group badinput
# poke FILE OFFSET BYTES...: overwrite bytes (decimal offset, hex bytes)
poke() {
  local f=$1 off=$2; shift 2
  local s=""; for b in "$@"; do s="$s\\x$b"; done
  printf "$s" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}
expect_load_error() { # NAME FILE MESSAGE(regex, after "wpusim: FILE: ")
  run "bad-$1" 30 "$SIM" "$2"
  if [ $RC -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] && grep -Eq "^wpusim: $2: $3\$" "$ERR"; then ok
  else bad "$1: want exit 2 and 'wpusim: $2: $3'; got $RC: $(cat "$ERR")"; fi
}
expect_load_error missing "$T/nonexistent.elf" "cannot open: No such file or directory"
mkdir -p "$T/adir.elf"; expect_load_error directory "$T/adir.elf" "not a regular file \(a directory\); wpusim loads an ELF executable"
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
head -c 40 "$GOOD" >"$T/trunc40.elf"; expect_load_error trunc-header "$T/trunc40.elf" "truncated: 40 bytes, an ELF32 header needs 52"
head -c 100 "$GOOD" >"$T/trunc100.elf"; expect_load_error trunc-phdr "$T/trunc100.elf" "truncated: program headers end at byte 148, file has 100 bytes"
head -c 4100 "$GOOD" >"$T/trunc4100.elf"; expect_load_error trunc-data "$T/trunc4100.elf" "truncated: segment 0 data ends at byte 8192, file has 4100 bytes"
sz=$(stat -c %s "$GOOD"); head -c $((sz - 10)) "$GOOD" >"$T/trunctail.elf"; expect_load_error trunc-tail "$T/trunctail.elf" "truncated: section headers end at byte $sz, file has $((sz - 10)) bytes"
cp "$GOOD" "$T/class64.elf"; poke "$T/class64.elf" 4 02; expect_load_error class "$T/class64.elf" "ELF class 64-bit, expected 32-bit \(ELFCLASS32\) for RV32"
cp "$GOOD" "$T/be.elf"; poke "$T/be.elf" 5 02; expect_load_error endian "$T/be.elf" "big-endian or invalid data encoding, expected little-endian"
cp "$GOOD" "$T/x86.elf"; poke "$T/x86.elf" 18 3e 00; expect_load_error machine "$T/x86.elf" "machine 62 \(x86-64\), expected RISC-V \(243\)"
cp "$GOOD" "$T/rel.elf"; poke "$T/rel.elf" 16 01 00; expect_load_error type "$T/rel.elf" "ELF type 1, expected a statically linked executable \(ET_EXEC\): this is an object file, link it"
cp "$GOOD" "$T/noentry.elf"; poke "$T/noentry.elf" 24 00 00 00 00; expect_load_error no-entry "$T/noentry.elf" "missing entry point \(e_entry is 0\)"
cp "$GOOD" "$T/dataentry.elf"; poke "$T/dataentry.elf" 24 00 00 20 00; expect_load_error entry-outside "$T/dataentry.elf" "entry point 0x00200000 is not inside an executable segment"
# program header 1 (the data segment) at offset 84: p_vaddr at 92
cp "$GOOD" "$T/overlap.elf"; poke "$T/overlap.elf" 92 00 00 01 00; expect_load_error overlap "$T/overlap.elf" "segments overlap: program header 1 \(0x00010000-0x00013fff\) and loadable segment 0 \(0x00010000-0x00010fff\)"
cp "$GOOD" "$T/range.elf"; poke "$T/range.elf" 92 00 ff ff ff; expect_load_error out-of-range "$T/range.elf" "segment 1 at 0xffffff00 size 0x4000 runs past the 32-bit address space"
cp "$GOOD" "$T/guard.elf"; poke "$T/guard.elf" 60 00 01 00 00; expect_load_error guard "$T/guard.elf" "segment 0 at 0x00000100 overlaps the null guard page 0x00000000-0x00000fff"
cp "$GOOD" "$T/bigfile.elf"; poke "$T/bigfile.elf" 68 00 00 00 10; expect_load_error filesz "$T/bigfile.elf" "segment 0: file size 0x10000000 larger than memory size 0x1000"
cp "$B/cfg/diamond.elf" "$T/bigcode.elf"; poke "$T/bigcode.elf" 72 00 00 00 10
expect_load_error code-span "$T/bigcode.elf" "executable segments span 0x00010000-0x1000ffff, 256 MiB; wpusim pre-decodes at most 64 MiB of code"
# a 1.5 GiB .bss stays sparse: loads and runs at once
cp "$GOOD" "$T/bigbss.elf"; poke "$T/bigbss.elf" 104 00 00 00 60
run bigbss 20 "$SIM" --quiet --threads 2 "$T/bigbss.elf"
if [ $RC -eq 0 ]; then ok; else bad "1.5 GiB .bss: exit $RC $(head -c 300 "$ERR")"; fi
