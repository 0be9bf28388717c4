/* src/emp/mlp.h — a one-hidden-layer tanh network for binary classification
 * behind the model vtable of emp/model.h (labels ±1, x ∈ R^d, h hidden units
 * = model->hidden ≥ 1).
 *
 *     a = W1·x + b1            (W1 h×d, b1 ∈ R^h)
 *     u = tanh(a)              (elementwise)
 *     f = w2ᵀu + b2            (w2 ∈ R^h, b2 ∈ R)
 *     ℓ = log(1 + exp(−y·f))
 *
 * Parameter vector (p = h·d + 2h + 1 entries), in this order:
 *
 *     [0, h·d)            W1 row-major: unit k's weights at k·d … k·d + d − 1
 *     [h·d, h·d + h)      b1
 *     [h·d + h, h·d + 2h) w2
 *     h·d + 2h            b2
 *
 * Per-sample gradient (backpropagation), with c = ∂ℓ/∂f = −y·σ(−y·f) and
 * δ = c·w2 ⊙ (1 − u⊙u) (tanh′(a) = 1 − tanh²(a)):
 *
 *     ∂ℓ/∂W1 = δ·xᵀ,  ∂ℓ/∂b1 = δ,  ∂ℓ/∂w2 = c·u,  ∂ℓ/∂b2 = c
 *     ‖∇ℓ‖²  = ‖δ‖²·(‖x‖² + 1) + c²·(‖u‖² + 1)
 *
 * Clipping, objective and direction are those of logistic regression
 * (emp/model.h, docs/langevin.md, "Experimental setting" eq. 84–85) on the whole vector of all
 * p entries: clip(g, M) = g·min(1, M/‖g‖), objective = (1/n) Σ ℓ_i +
 * (λ/2)‖w‖², direction = (1/n) Σ clip(∇ℓ_i, M) + λ·w (λ·w on every
 * parameter, not clipped).  Clipping rescales a sample's δ and c by one
 * factor, so the batched direction stays two GEMMs (pre-activations X·W1ᵀ,
 * then Δᵀ·X) per block of UL_EMP_RUN_BLOCK runs, as for logistic regression.
 *
 * The model does not initialise parameters (the learner's caller does; all
 * zeros keeps the hidden units identical, so start from small random values).
 *
 * tanh is ul_mlp_tanh below, not libm's: written in plain arithmetic (Cephes'
 * exp, src/emp/mlp.c), it vectorises in the batched direction, where libm's
 * is a call per entry, n·M·h calls per step (perf, bench_learner's network,
 * one thread: glibc's tanh took 8.7 % of the time, all the per-entry work
 * 13 %; with ul_mlp_tanh the per-entry work takes 7.4 %), and its bits do
 * not depend on the machine's libm.  Every path (direction, per-sample
 * gradient, loss, objective) uses it, so they describe one network.
 */
#ifndef UL_EMP_MLP_H
#define UL_EMP_MLP_H

#include <stddef.h>

#include "emp/model.h"

extern const ul_model_ops ul_mlp_ops;

/* A network with `hidden` ≥ 1 tanh units (λ ≥ 0, clip > 0 or INFINITY).
 * ul_mlp_ops.grad returns UL_EINPUT for hidden = 0 or for sizes that do not
 * fit BLAS int arguments, UL_ENOMEM when its scratch memory cannot be
 * allocated. */
ul_model ul_mlp_model(size_t hidden, double lambda, double clip);

/* tanh(x) to within 4 ulp (measured ≤ 3.2 against MPFR), odd, ±1 from
 * |x| ≥ 20 on (the rounded value there), NaN for NaN. */
double ul_mlp_tanh(double x);

#endif
