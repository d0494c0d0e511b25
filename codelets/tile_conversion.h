/* The tile conversions of the generalized problem and the back-
 * transformation, shared by the codelet and its CUDA kernel. */
#ifndef STARTRD_TILE_CONVERSION_H
#define STARTRD_TILE_CONVERSION_H

typedef enum startrd_tile_conversion {
    STARTRD_TILE_ADJOINT,      /**< B = A^H (B is A's transpose in shape) */
    STARTRD_TILE_FROM_LOWER,   /**< B = the Hermitian tile whose lower triangle A holds (real diagonal) */
    STARTRD_TILE_FROM_UPPER,   /**< the same from A's upper triangle */
    STARTRD_TILE_LOWER_PART,   /**< B's lower triangle = A's; the rest of B kept */
    STARTRD_TILE_UPPER_PART,   /**< B's upper triangle = A's; the rest of B kept */
    STARTRD_TILE_ADJOINT_LOWER /**< B = the strict lower triangle of A^H, zeros elsewhere (stage-1
                                    reflectors stored by rows, as uplo 'U' leaves them, in ZGEQRF's layout) */
} startrd_tile_conversion_t;

#endif
