/* startrd-topology: the GPU groups the library's communication would follow
 * (found from the machine, or imposed with STARTRD_GPU_GROUPS="0,1;2,3"),
 * and StarPU's measured bandwidth between every pair of memory nodes. */
#include "starpu_include.h"
#include "startrd.h"
#include "topology.h"

#include <stdio.h>
#include <stdlib.h>

static void print_groups(int ngpu, const int *group_of, int ngroups)
{
    for (int k = 0; k < ngroups; k++) {
        const char *sep = "";

        for (int g = 0; g < ngpu; g++)
            if (group_of[g] == k) {
                printf("%s%d", sep, g);
                sep = ",";
            }
        printf("%s", k + 1 < ngroups ? ";" : "\n");
    }
}

int main(int argc, char **argv)
{
    int ids[STARPU_NMAXWORKERS], devid[STARPU_NMAXWORKERS], group_of[STARPU_NMAXWORKERS];
    char busid[STARPU_NMAXWORKERS][16];
    const char *spec = getenv(STARTRD_GPU_GROUPS_ENV);
    int ngpu = 0, ngroups, nnodes;

    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: startrd-topology   (%s=\"0,1;2,3\" imposes groups)\n", STARTRD_GPU_GROUPS_ENV);
        return 2;
    }
    if (startrd_init(NULL) != 0)
        return 1;
    int n = starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, ids, STARPU_NMAXWORKERS);

    for (int i = 0; i < n; i++) {
        int d = starpu_worker_get_devid(ids[i]), known = 0;

        for (int g = 0; g < ngpu; g++)
            known |= devid[g] == d;
        if (!known)
            devid[ngpu++] = d;
    }
    ngroups = startrd_topology_discover(ngpu, devid, group_of, busid);
    if (ngroups < 0) {
        startrd_finalize();
        return 1;
    }
    for (int g = 0; g < ngpu; g++)
        printf("GPU %d: CUDA device %d, PCI %s, group %d\n", g, devid[g], busid[g], group_of[g]);
    printf("groups found: ");
    print_groups(ngpu, group_of, ngroups);
    if (ngpu == 0)
        printf("(no GPU)\n");
    if (spec != NULL && ngpu > 0) {
        ngroups = startrd_topology_parse(spec, ngpu, group_of);
        if (ngroups < 0) {
            fprintf(stderr, "startrd-topology: %s=\"%s\" does not name GPUs 0..%d once each\n",
                    STARTRD_GPU_GROUPS_ENV, spec, ngpu - 1);
            startrd_finalize();
            return 1;
        }
        printf("groups imposed by %s: ", STARTRD_GPU_GROUPS_ENV);
        print_groups(ngpu, group_of, ngroups);
    }

    nnodes = (int)starpu_memory_nodes_get_count();
    printf("\nbandwidth in MB/s as StarPU measured it (row: from, column: to)\n%-10s", "");
    for (int j = 0; j < nnodes; j++) {
        char name[32];

        starpu_memory_node_get_name((unsigned)j, name, sizeof name);
        printf(" %10s", name);
    }
    printf("\n");
    for (int i = 0; i < nnodes; i++) {
        char name[32];

        starpu_memory_node_get_name((unsigned)i, name, sizeof name);
        printf("%-10s", name);
        for (int j = 0; j < nnodes; j++)
            printf(" %10.0f", i == j ? 0.0 : starpu_transfer_bandwidth((unsigned)i, (unsigned)j));
        printf("\n");
    }
    return startrd_finalize() == 0 ? 0 : 1;
}
