#include "topology.h"
#include "config.h"
#include "error.h"

#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

#ifdef STARTRD_USE_CUDA
#include <cuda_runtime.h>
#endif

int startrd_topology_parse(const char *spec, int ngpu, int *group_of)
{
    int ngroups = 0, seen = 0;
    const char *p = spec;

    if (spec == NULL || ngpu < 0)
        return -1;
    for (int g = 0; g < ngpu; g++)
        group_of[g] = -1;
    while (*p != '\0') {
        char *end;
        long g = strtol(p, &end, 10);

        if (end == p || g < 0 || g >= ngpu || group_of[g] >= 0)
            return -1;
        group_of[g] = ngroups;
        seen++;
        p = end;
        if (*p == ';' || *p == '\0')
            ngroups++;
        if (*p == ',' || *p == ';')
            p++;
        else if (*p != '\0')
            return -1;
    }
    return seen == ngpu && ngpu > 0 ? ngroups : -1;
}

/* Union-find over the GPUs, then groups numbered in order of first member. */
static int find(int *parent, int g)
{
    while (parent[g] != g)
        g = parent[g] = parent[parent[g]];
    return g;
}

static int number_groups(int ngpu, int *parent, int *group_of)
{
    int ngroups = 0;

    for (int g = 0; g < ngpu; g++) {
        int root = find(parent, g);

        group_of[g] = root == g ? ngroups++ : group_of[root];
    }
    return ngroups;
}

#ifdef STARTRD_USE_CUDA
/* Whether the nearest common ancestor of two PCI devices is a PCIe switch. */
static int share_switch(hwloc_topology_t topo, hwloc_obj_t a, hwloc_obj_t b)
{
    hwloc_obj_t c;

    if (a == NULL || b == NULL)
        return 0;
    c = hwloc_get_common_ancestor_obj(topo, a, b);
    return c != NULL && c->type == HWLOC_OBJ_BRIDGE && c->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI;
}

int startrd_topology_discover(int ngpu, const int *devid, int *group_of, char (*busid)[16])
{
    int parent[ngpu > 0 ? ngpu : 1];
    hwloc_obj_t obj[ngpu > 0 ? ngpu : 1];
    hwloc_topology_t topo;

    if (hwloc_topology_init(&topo) != 0 ||
        hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT) != 0 ||
        hwloc_topology_load(topo) != 0) {
        startrd_error("hwloc could not read the machine's topology");
        return -1;
    }
    for (int g = 0; g < ngpu; g++) {
        cudaError_t st = cudaDeviceGetPCIBusId(busid[g], 16, devid[g]);

        if (st != cudaSuccess) {
            startrd_error("cudaDeviceGetPCIBusId(%d): %s", devid[g], cudaGetErrorString(st));
            hwloc_topology_destroy(topo);
            return -1;
        }
        obj[g] = hwloc_get_pcidev_by_busidstring(topo, busid[g]);
        parent[g] = g;
    }
    for (int a = 0; a < ngpu; a++)
        for (int b = a + 1; b < ngpu; b++) {
            int atomics = 0;

            if (cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, devid[a], devid[b]) !=
                cudaSuccess)
                atomics = 0;
            if (atomics || share_switch(topo, obj[a], obj[b]))
                parent[find(parent, b)] = find(parent, a);
        }
    hwloc_topology_destroy(topo);
    return number_groups(ngpu, parent, group_of);
}

int startrd_topology_peers_reachable(int ngpu, const int *devid)
{
    for (int g = 0; g < ngpu; g++)
        for (int h = 0; h < ngpu; h++) {
            int ok = 0;

            if (g != h && (cudaDeviceCanAccessPeer(&ok, devid[g], devid[h]) != cudaSuccess || !ok))
                return 0;
        }
    return 1;
}
#else
int startrd_topology_peers_reachable(int ngpu, const int *devid)
{
    (void)ngpu;
    (void)devid;
    return 0;
}

int startrd_topology_discover(int ngpu, const int *devid, int *group_of, char (*busid)[16])
{
    int parent[ngpu > 0 ? ngpu : 1];

    (void)devid;
    for (int g = 0; g < ngpu; g++) {
        parent[g] = g;
        strcpy(busid[g], "-");
    }
    return number_groups(ngpu, parent, group_of);
}
#endif
