/* The SanitizerCoverage runtime of `cargo xtask mutants --unreached` (mutation/src/unreached.rs).
 * Linked into the instrumented tiergate only (target/cov), never into a normal build.
 * LLVM's sancov pass calls the two *_init hooks from a constructor of every instrumented
 * module, each with the bounds of the whole linked section (one call per module, same
 * bounds); the counters and the PC table are parallel arrays (entry i of the table is
 * the block whose counter is byte i). At exit the process writes one file,
 * $TIERGATE_SANCOV_DIR/<pid>.cov: a line per instrumented block, "<pc - load base in hex> <0|1>".
 * Bool flags (-sanitizer-coverage-inline-bool-flag), so the first array holds 0 or 1 a block. */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const unsigned char *counters_beg, *counters_end;
static const uintptr_t *pcs_beg, *pcs_end;
static int registered;

static void dump(void);

static void arm(void) {
    if (!registered) {
        registered = 1;
        atexit(dump);
    }
}

void __sanitizer_cov_bool_flag_init(const unsigned char *beg, const unsigned char *end) {
    if (!counters_beg) {
        counters_beg = beg;
        counters_end = end;
    }
    arm();
}

void __sanitizer_cov_pcs_init(const uintptr_t *beg, const uintptr_t *end) {
    if (!pcs_beg) {
        pcs_beg = beg;
        pcs_end = end;
    }
    arm();
}

/* The first object dl_iterate_phdr reports is the executable: its load bias is the PIE base. */
static int first_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    *(uintptr_t *)data = (uintptr_t)info->dlpi_addr;
    return 1;
}

static void dump(void) {
    const char *dir = getenv("TIERGATE_SANCOV_DIR");
    if (!dir || !counters_beg || !pcs_beg) return;
    uintptr_t base = 0;
    dl_iterate_phdr(first_object, &base);
    char path[4096];
    snprintf(path, sizeof path, "%s/%ld.cov", dir, (long)getpid());
    FILE *f = fopen(path, "w");
    if (!f) return;
    size_t n = (size_t)(counters_end - counters_beg);
    size_t m = (size_t)(pcs_end - pcs_beg) / 2; /* (pc, flags) pairs */
    if (m < n) n = m;
    /* A block LLVM deleted after instrumenting it keeps its entry with the address 1
     * (not in the binary): written as offset 0, which no code has in a PIE. */
    for (size_t i = 0; i < n; i++) {
        uintptr_t pc = pcs_beg[2 * i];
        fprintf(f, "%lx %d\n", (unsigned long)(pc >= base ? pc - base : 0), counters_beg[i] ? 1 : 0);
    }
    fclose(f);
}
