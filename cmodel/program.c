/* ELF32 RISC-V loader: validation with one-line errors, symbols, pre-decode.
 *
 * The file is never read whole: the ELF header first, then only the parts it
 * names (program headers, segment data, section headers, the symbol table and
 * its strings), each checked against the file's size before it is read, so a
 * device, a huge file or a header with absurd sizes costs no memory. */
#define _POSIX_C_SOURCE 200809L /* open, fstat, pread */

#include "program.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "infile.h"


/* ELF constants we need (the spec's names). */
enum {
    EI_NIDENT = 16, ELFCLASS32 = 1, ELFDATA2LSB = 1, ET_EXEC = 2, EM_RISCV = 243,
    PT_LOAD = 1, PT_DYNAMIC = 2, PT_INTERP = 3, PF_X = 1, PF_W = 2,
    SHT_SYMTAB = 2, STT_FUNC = 2, STT_OBJECT = 1, STT_NOTYPE = 0, SHN_UNDEF = 0,
    EHDR_SIZE = 52, PHDR_SIZE = 32, SHDR_SIZE = 40, SYM_SIZE = 16,
};

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static int fail(char *err, size_t len, const char *path, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(err, len, "%s: ", path);
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < len) vsnprintf(err + n, len - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* The open program file: its descriptor and size (a regular file). */
typedef struct elf_file {
    int fd;
    uint64_t size;
    const char *path;
} elf_file_t;

/* Read len bytes at off into a new buffer (with room for a NUL after them).
 * The caller has checked off + len against the file's size. */
static void *read_part(const elf_file_t *f, uint64_t off, size_t len, const char *what, char *err, size_t errlen)
{
    uint8_t *buf = malloc(len + 1);
    if (!buf) {
        fail(err, errlen, f->path, "out of host memory reading %s (%zu bytes)", what, len);
        return NULL;
    }
    for (size_t done = 0; done < len;) {
        ssize_t n = pread(f->fd, buf + done, len - done, (off_t)(off + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            fail(err, errlen, f->path, "read error in %s: %s", what, n < 0 ? strerror(errno) : "the file shrank");
            free(buf);
            return NULL;
        }
        done += (size_t)n;
    }
    buf[len] = 0;
    return buf;
}

static const char *machine_name(unsigned m)
{
    switch (m) {
    case 3: return " (x86)";
    case 40: return " (ARM)";
    case 62: return " (x86-64)";
    case 183: return " (AArch64)";
    case 8: return " (MIPS)";
    default: return "";
    }
}

static int cmp_sym(const void *a, const void *b)
{
    const prog_symbol_t *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    if (x->is_func != y->is_func) return y->is_func - x->is_func; /* functions first */
    return strcmp(x->name, y->name);
}

static int load_symbols(program_t *p, const elf_file_t *f, const uint8_t *eh, char *err, size_t errlen)
{
    uint64_t n = f->size;
    uint32_t shoff = rd32(eh + 32);
    unsigned shentsize = rd16(eh + 46), shnum = rd16(eh + 48);
    if (shoff == 0 || shnum == 0) return 0; /* stripped of sections: no symbols */
    if (shentsize != SHDR_SIZE)
        return fail(err, errlen, p->path, "section header size %u, expected %u", shentsize, SHDR_SIZE);
    if ((uint64_t)shoff + (uint64_t)shnum * SHDR_SIZE > n)
        return fail(err, errlen, p->path, "truncated: section headers end at byte %llu, file has %llu bytes",
                    (unsigned long long)shoff + (unsigned long long)shnum * SHDR_SIZE, (unsigned long long)n);
    uint8_t *shdrs = read_part(f, shoff, (size_t)shnum * SHDR_SIZE, "the section headers", err, errlen);
    if (!shdrs) return -1;
    int rc = 0;
    uint8_t *syms = NULL;
    for (unsigned i = 0; i < shnum; i++) {
        const uint8_t *sh = shdrs + (size_t)i * SHDR_SIZE;
        if (rd32(sh + 4) != SHT_SYMTAB) continue;
        uint32_t off = rd32(sh + 16), size = rd32(sh + 20), link = rd32(sh + 24);
        if (link >= shnum) { rc = fail(err, errlen, p->path, "symbol table links to missing section %u", link); break; }
        const uint8_t *strh = shdrs + (size_t)link * SHDR_SIZE;
        uint32_t stroff = rd32(strh + 16), strsize = rd32(strh + 20);
        if ((uint64_t)off + size > n || (uint64_t)stroff + strsize > n) {
            rc = fail(err, errlen, p->path, "truncated: symbol table runs past the end of the file (%llu bytes)",
                      (unsigned long long)n);
            break;
        }
        if ((uint64_t)size + strsize > PROG_MAX_SYMTAB) {
            rc = fail(err, errlen, p->path, "symbol and string tables of %llu MiB; wpusim reads at most %u MiB of them",
                      (unsigned long long)(((uint64_t)size + strsize) >> 20), PROG_MAX_SYMTAB >> 20);
            break;
        }
        if (!(p->strtab = read_part(f, stroff, strsize, "the string table", err, errlen))) { rc = -1; break; }
        if (strsize == 0 || p->strtab[strsize - 1] != 0) {
            rc = fail(err, errlen, p->path, "malformed string table (not NUL-terminated)");
            break;
        }
        unsigned count = size / SYM_SIZE;
        syms = read_part(f, off, (size_t)count * SYM_SIZE, "the symbol table", err, errlen);
        p->sym = calloc(count ? count : 1, sizeof *p->sym);
        if (!syms || !p->sym) {
            if (syms) fail(err, errlen, p->path, "out of host memory for %u symbols", count);
            rc = -1;
            break;
        }
        for (unsigned k = 0; k < count; k++) {
            const uint8_t *s = syms + (size_t)k * SYM_SIZE;
            uint32_t name = rd32(s), value = rd32(s + 4), ssize = rd32(s + 8);
            unsigned type = s[12] & 15, shndx = rd16(s + 14);
            if (shndx == SHN_UNDEF || name == 0 || name >= strsize) continue;
            if (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE) continue;
            const char *nm = p->strtab + name;
            if (nm[0] == '$' || nm[0] == 0) continue;              /* mapping symbols */
            if (nm[0] == '.' && nm[1] == 'L') continue;            /* assembler temporaries */
            p->sym[p->nsym++] = (prog_symbol_t){value, ssize, type == STT_FUNC, nm};
        }
        qsort(p->sym, (size_t)p->nsym, sizeof *p->sym, cmp_sym);
        break;
    }
    free(syms);
    free(shdrs);
    return rc;
}

int program_overlaps(const program_t *p, uint64_t lo, uint64_t hi)
{
    for (int i = 0; i < p->nseg; i++) {
        uint64_t a = p->seg[i].vaddr, b = a + p->seg[i].memsz;
        if (lo < b && a < hi) return i;
    }
    return -1;
}

program_t *program_load(const char *path, char *err, size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer */
    elf_file_t file = {open(path, O_RDONLY | O_NONBLOCK), 0, path}, *f = &file;
    if (f->fd < 0) { fail(err, errlen, path, "cannot open: %s", strerror(errno)); return NULL; }
    struct stat st;
    if (fstat(f->fd, &st) < 0) {
        fail(err, errlen, path, "cannot open: %s", strerror(errno));
        close(f->fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        fail(err, errlen, path, "not a regular file (%s); wpusim loads an ELF executable", infile_kind((unsigned)st.st_mode));
        close(f->fd);
        return NULL;
    }
    f->size = (uint64_t)st.st_size;
    program_t *p = calloc(1, sizeof *p);
    if (!p || !(p->path = malloc(strlen(path) + 1))) {
        fail(err, errlen, path, "out of host memory");
        free(p);
        close(f->fd);
        return NULL;
    }
    strcpy(p->path, path);
    uint8_t *eh = NULL, *ph = NULL;

    uint64_t n = f->size;
    if (n < 4) { fail(err, errlen, path, "truncated: %llu bytes, too short for an ELF header", (unsigned long long)n); goto bad; }
    if (!(eh = read_part(f, 0, n < EHDR_SIZE ? (size_t)n : EHDR_SIZE, "the ELF header", err, errlen))) goto bad;
    if (memcmp(eh, "\177ELF", 4) != 0) { fail(err, errlen, path, "not an ELF file (bad magic number)"); goto bad; }
    if (n < EHDR_SIZE) {
        fail(err, errlen, path, "truncated: %llu bytes, an ELF32 header needs %d", (unsigned long long)n, EHDR_SIZE);
        goto bad;
    }
    if (eh[4] != ELFCLASS32) {
        fail(err, errlen, path, "ELF class %s, expected 32-bit (ELFCLASS32) for RV32",
             eh[4] == 2 ? "64-bit" : "invalid");
        goto bad;
    }
    if (eh[5] != ELFDATA2LSB) { fail(err, errlen, path, "big-endian or invalid data encoding, expected little-endian"); goto bad; }
    unsigned type = rd16(eh + 16), machine = rd16(eh + 18);
    if (machine != EM_RISCV) {
        fail(err, errlen, path, "machine %u%s, expected RISC-V (%u)", machine, machine_name(machine), EM_RISCV);
        goto bad;
    }
    if (type != ET_EXEC) {
        fail(err, errlen, path, "ELF type %u, expected a statically linked executable (ET_EXEC)%s", type,
             type == 1 ? ": this is an object file, link it" : type == 3 ? ": this is a shared object or PIE, link with -static -no-pie" : "");
        goto bad;
    }
    p->entry = rd32(eh + 24);
    uint32_t phoff = rd32(eh + 28);
    unsigned phentsize = rd16(eh + 42), phnum = rd16(eh + 44);
    if (phnum == 0) { fail(err, errlen, path, "no program headers: nothing to load"); goto bad; }
    if (phentsize != PHDR_SIZE) { fail(err, errlen, path, "program header size %u, expected %u", phentsize, PHDR_SIZE); goto bad; }
    if ((uint64_t)phoff + (uint64_t)phnum * PHDR_SIZE > n) {
        fail(err, errlen, path, "truncated: program headers end at byte %llu, file has %llu bytes",
             (unsigned long long)phoff + (unsigned long long)phnum * PHDR_SIZE, (unsigned long long)n);
        goto bad;
    }
    if (!(ph = read_part(f, phoff, (size_t)phnum * PHDR_SIZE, "the program headers", err, errlen))) goto bad;
    uint64_t data_total = 0;
    for (unsigned i = 0; i < phnum; i++) {
        const uint8_t *h = ph + (size_t)i * PHDR_SIZE;
        uint32_t ptype = rd32(h);
        if (ptype == PT_INTERP || ptype == PT_DYNAMIC) {
            fail(err, errlen, path, "dynamically linked (program header %u); link statically", i);
            goto bad;
        }
        if (ptype != PT_LOAD) continue;
        uint32_t off = rd32(h + 4), vaddr = rd32(h + 8), filesz = rd32(h + 16), memsz = rd32(h + 20);
        uint32_t flags = rd32(h + 24);
        if (memsz == 0) continue;
        if (p->nseg == PROG_MAX_SEGMENTS) { fail(err, errlen, path, "more than %d loadable segments", PROG_MAX_SEGMENTS); goto bad; }
        if (filesz > memsz) {
            fail(err, errlen, path, "segment %u: file size 0x%x larger than memory size 0x%x", i, filesz, memsz);
            goto bad;
        }
        if ((uint64_t)off + filesz > n) {
            fail(err, errlen, path, "truncated: segment %u data ends at byte %llu, file has %llu bytes", i,
                 (unsigned long long)off + filesz, (unsigned long long)n);
            goto bad;
        }
        if ((uint64_t)vaddr + memsz > 0x100000000ull) {
            fail(err, errlen, path, "segment %u at 0x%08x size 0x%x runs past the 32-bit address space", i, vaddr, memsz);
            goto bad;
        }
        if (vaddr < PROG_GUARD_END) {
            fail(err, errlen, path, "segment %u at 0x%08x overlaps the null guard page 0x00000000-0x00000fff", i, vaddr);
            goto bad;
        }
        int other = program_overlaps(p, vaddr, (uint64_t)vaddr + memsz);
        if (other >= 0) {
            fail(err, errlen, path, "segments overlap: program header %u (0x%08x-0x%08x) and loadable segment %d (0x%08x-0x%08x)",
                 i, vaddr, (uint32_t)(vaddr + memsz - 1), other, p->seg[other].vaddr,
                 (uint32_t)(p->seg[other].vaddr + p->seg[other].memsz - 1));
            goto bad;
        }
        if ((data_total += filesz) > PROG_MAX_DATA) {
            fail(err, errlen, path, "segments hold %llu MiB of file data (to segment %u); wpusim loads at most %u MiB",
                 (unsigned long long)(data_total >> 20), i, PROG_MAX_DATA >> 20);
            goto bad;
        }
        p->seg[p->nseg++] = (prog_segment_t){vaddr, memsz, filesz, off, !!(flags & PF_X), !!(flags & PF_W), NULL};
    }
    if (p->nseg == 0) { fail(err, errlen, path, "no loadable (PT_LOAD) segments"); goto bad; }

    /* Code range: the executable segments. */
    p->code_lo = 0xffffffffu, p->code_hi = 0;
    for (int i = 0; i < p->nseg; i++) {
        if (!p->seg[i].exec) continue;
        if (p->seg[i].vaddr < p->code_lo) p->code_lo = p->seg[i].vaddr & ~3u;
        uint64_t hi = ((uint64_t)p->seg[i].vaddr + p->seg[i].memsz + 3) & ~3ull;
        if (hi > p->code_hi) p->code_hi = hi;
    }
    if (p->code_hi == 0) { fail(err, errlen, path, "no executable segment"); goto bad; }
    if (p->code_hi - p->code_lo > PROG_MAX_CODE) {
        fail(err, errlen, path, "executable segments span 0x%08x-0x%08llx, %llu MiB; wpusim pre-decodes at most %u MiB of code",
             p->code_lo, (unsigned long long)p->code_hi - 1, (unsigned long long)((p->code_hi - p->code_lo) >> 20),
             PROG_MAX_CODE >> 20);
        goto bad;
    }
    if (p->entry == 0) { fail(err, errlen, path, "missing entry point (e_entry is 0)"); goto bad; }
    if (p->entry & 3) { fail(err, errlen, path, "entry point 0x%08x is not 4-byte aligned", p->entry); goto bad; }
    int eseg = program_overlaps(p, p->entry, (uint64_t)p->entry + 4);
    if (eseg < 0 || !p->seg[eseg].exec) {
        fail(err, errlen, path, "entry point 0x%08x is not inside an executable segment", p->entry);
        goto bad;
    }
    if (load_symbols(p, f, eh, err, errlen) < 0) goto bad;
    for (int i = 0; i < p->nseg; i++) {
        char what[48];
        snprintf(what, sizeof what, "segment data at 0x%08x", p->seg[i].vaddr);
        if (!(p->seg[i].data = read_part(f, p->seg[i].offset, p->seg[i].filesz, what, err, errlen))) goto bad;
    }
    close(f->fd);
    f->fd = -1;

    /* Pre-decode every word of code, once. */
    size_t words = (p->code_hi - p->code_lo) / 4;
    p->code = calloc(words ? words : 1, sizeof *p->code);
    p->is_exec = calloc(words ? words : 1, 1);
    p->analysed = calloc(words ? words : 1, 1);
    p->is_func = calloc(words ? words : 1, 1);
    if (!p->code || !p->is_exec || !p->analysed || !p->is_func) {
        fail(err, errlen, path, "out of host memory pre-decoding %zu words of code", words);
        goto bad;
    }
    for (size_t k = 0; k < words; k++) {
        uint32_t pc = p->code_lo + 4 * (uint32_t)k;
        int s = program_overlaps(p, pc, (uint64_t)pc + 4);
        uint32_t word = 0;
        if (s >= 0 && p->seg[s].exec) {
            p->is_exec[k] = 1;
            uint32_t rel = pc - p->seg[s].vaddr;
            for (int b = 0; b < 4; b++)
                if (rel + (uint32_t)b < p->seg[s].filesz)
                    word |= (uint32_t)p->seg[s].data[rel + (uint32_t)b] << (8 * b);
        }
        isa_decode(word, pc, &p->code[k]);
    }

    const prog_symbol_t *rs = program_symbol_named(p, "__wsim_results_start");
    const prog_symbol_t *re = program_symbol_named(p, "__wsim_results_end");
    if (rs && re && re->addr > rs->addr) {
        int sg = program_overlaps(p, rs->addr, re->addr);
        if ((rs->addr & 3) || (re->addr - rs->addr) % 8 || sg < 0 ||
            (uint64_t)re->addr > (uint64_t)p->seg[sg].vaddr + p->seg[sg].memsz) {
            fail(err, errlen, path, "malformed wsim_results section 0x%08x-0x%08x (not 8-byte records inside one segment)",
                 rs->addr, re->addr);
            goto bad;
        }
        p->results_lo = rs->addr, p->results_hi = re->addr;
    }
    /* the inputs and the grid a kernel declares (WSIM_INPUT, WSIM_GRID_ROWS:
     * 16-byte records; docs/irregular.md) */
    static const struct { const char *lo, *hi, *what; size_t off_lo, off_hi; } recs[] = {
        {"__wsim_inputs_start", "__wsim_inputs_end", "wsim_inputs", offsetof(program_t, inputs_lo), offsetof(program_t, inputs_hi)},
        {"__wsim_grid_start", "__wsim_grid_end", "wsim_grid", offsetof(program_t, grid_lo), offsetof(program_t, grid_hi)},
    };
    for (size_t i = 0; i < sizeof recs / sizeof recs[0]; i++) {
        const prog_symbol_t *a = program_symbol_named(p, recs[i].lo), *b = program_symbol_named(p, recs[i].hi);
        if (!a || !b || b->addr <= a->addr) continue;
        int sg = program_overlaps(p, a->addr, b->addr);
        if ((a->addr & 3) || (b->addr - a->addr) % 16 || sg < 0 ||
            (uint64_t)b->addr > (uint64_t)p->seg[sg].vaddr + p->seg[sg].filesz) {
            fail(err, errlen, path, "malformed %s section 0x%08x-0x%08x (not 16-byte records inside one segment's data)",
                 recs[i].what, a->addr, b->addr);
            goto bad;
        }
        *(uint32_t *)((char *)p + recs[i].off_lo) = a->addr;
        *(uint32_t *)((char *)p + recs[i].off_hi) = b->addr;
    }

    free(eh);
    free(ph);
    return p;
bad:
    if (f->fd >= 0) close(f->fd);
    free(eh);
    free(ph);
    program_free(p);
    return NULL;
}

void program_free(program_t *p)
{
    if (!p) return;
    free(p->path);
    free(p->strtab);
    for (int i = 0; i < p->nseg; i++) free(p->seg[i].data);
    free(p->sym);
    free(p->code);
    free(p->is_exec);
    free(p->analysed);
    free(p->is_func);
    free(p->cfg_node_of);
    free(p->is_target);
    free(p->join_at);
    free(p->rpo);
    free(p);
}

void program_place(const program_t *p, mem_t *m)
{
    for (int i = 0; i < p->nseg; i++) {
        const prog_segment_t *s = &p->seg[i];
        mem_write_bytes(m, s->vaddr, s->data, s->filesz);
        /* .bss: untouched pages read as zero already; clear only the part of
         * pages an earlier segment allocated (keeps a huge .bss sparse) */
        mem_zero(m, s->vaddr + s->filesz, s->memsz - s->filesz);
    }
}

const prog_symbol_t *program_symbol_at(const program_t *p, uint32_t addr)
{
    int lo = 0, hi = p->nsym - 1, best = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (p->sym[mid].addr <= addr) best = mid, lo = mid + 1;
        else hi = mid - 1;
    }
    /* prefer a function or sized object at that address over a label */
    while (best > 0 && p->sym[best - 1].addr == p->sym[best].addr) best--;
    return best >= 0 ? &p->sym[best] : NULL;
}

const prog_symbol_t *program_symbol_named(const program_t *p, const char *name)
{
    for (int i = 0; i < p->nsym; i++)
        if (strcmp(p->sym[i].name, name) == 0) return &p->sym[i];
    return NULL;
}

void program_describe_pc(const program_t *p, uint32_t pc, char *buf, size_t len)
{
    const prog_symbol_t *s = program_symbol_at(p, pc);
    if (s && pc - s->addr < 0x100000) {
        if (pc == s->addr) snprintf(buf, len, "%s", s->name);
        else snprintf(buf, len, "%s+0x%x", s->name, pc - s->addr);
    } else {
        snprintf(buf, len, "0x%08x", pc);
    }
}

int program_reads_csr(const program_t *p, uint32_t csr)
{
    for (uint64_t k = 0; k < (p->code_hi - p->code_lo) / 4; k++)
        if (p->is_exec[k] && p->code[k].cls == ISA_CLASS_CSR && p->code[k].imm == csr) return 1;
    return 0;
}
