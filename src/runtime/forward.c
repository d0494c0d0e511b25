#include "forward.h"

#include "error.h"

#include <stdlib.h>

void *startrd_forward_arg(const startrd_forward_t *forward)
{
    startrd_forward_t *copy = forward != NULL ? malloc(sizeof *copy) : NULL;

    if (copy != NULL)
        *copy = *forward;
    return copy;
}

void startrd_forward_callback(void *arg)
{
    const startrd_forward_t *forward = arg;

    if (forward == NULL)
        return;
    for (int h = 0; h < forward->nhandles; h++)
        for (int i = 0; i < forward->nnodes; i++)
            if (starpu_data_fetch_on_node(forward->handle[h], forward->node[i], 1) != 0)
                startrd_error("cannot forward a task's output to memory node %u", forward->node[i]);
}
