/* GPU groups: the override string's grammar (every GPU exactly once), and
 * discovery on this machine's GPUs (every GPU in some group). */
#include "testing_context.h"
#include "topology.h"

#include <string.h>

static void parse_case(const char *spec, int ngpu, int want, const int *want_group)
{
    int group_of[8];
    int got = startrd_topology_parse(spec, ngpu, group_of);
    int same = got == want && (want < 0 || memcmp(group_of, want_group, (size_t)ngpu * sizeof *group_of) == 0);

    tst_check(same, "parse \"%s\" for %d GPUs: %d groups (want %d)", spec, ngpu, got, want);
}

int main(void)
{
    startrd_context_t *ctx;

    parse_case("0,1;2,3", 4, 2, (const int[]){0, 0, 1, 1});
    parse_case("2,0;3;1", 4, 3, (const int[]){0, 2, 0, 1});
    parse_case("0", 1, 1, (const int[]){0});
    parse_case("0;1;", 2, 2, (const int[]){0, 1});
    parse_case("0,1,1", 2, -1, NULL);
    parse_case("0,2", 2, -1, NULL);
    parse_case("0", 2, -1, NULL);
    parse_case("0;;1", 2, -1, NULL);
    parse_case("0 1", 2, -1, NULL);
    parse_case("a", 1, -1, NULL);
    parse_case("", 0, -1, NULL);

    ctx = tst_open_context();
    if (ctx != NULL) {
        int devid[STARPU_NMAXWORKERS], group_of[STARPU_NMAXWORKERS], ok = 1;
        char busid[STARPU_NMAXWORKERS][16];
        int ngroups;

        for (int g = 0; g < ctx->ncuda; g++)
            devid[g] = starpu_worker_get_devid(ctx->cuda_worker[g]);
        ngroups = startrd_topology_discover(ctx->ncuda, devid, group_of, busid);
        for (int g = 0; g < ctx->ncuda; g++) {
            ok &= group_of[g] >= 0 && group_of[g] < ngroups;
            printf("# GPU %d: PCI %s, group %d\n", g, busid[g], group_of[g]);
        }
        tst_check(ngroups >= (ctx->ncuda > 0) && ngroups <= ctx->ncuda && ok,
                  "discovery: %d GPUs in %d groups", ctx->ncuda, ngroups);
        startrd_context_release();
    }
    return tst_summary();
}
