/* src/cert/methods.h — the audit methods, listed once.
 *
 * UL_CERT_METHOD_LIST(X) expands X(name, id) for every method, in the order
 * messages list them.  cert/cert.c makes ul_cert_methods[] of the names (the
 * envelope refuses any other, with "did you mean"); audit/audit.h declares
 * the handler ul_audit_<id> of each and audit/audit.c registers them.  A new
 * method is one line here and its handler file (ARCHITECTURE.md, "Add an
 * audit method"). */
#ifndef UL_CERT_METHODS_H
#define UL_CERT_METHODS_H

#define UL_CERT_METHOD_LIST(X)                                                                     \
    X("gaussian-mechanism", gaussian_mechanism)                                                    \
    X("output-perturbation", output_perturbation)                                                  \
    X("model-clipping", model_clipping)                                                            \
    X("gradient-clipping", gradient_clipping)                                                      \
    X("dp-sgd-group", dp_sgd_group)                                                                \
    X("langevin", langevin)                                                                        \
    X("noisy-gd", noisy_gd)                                                                        \
    X("d2d", d2d)                                                                                  \
    X("rdp-curve", rdp_curve)                                                                      \
    X("dp-sgd", dp_sgd)

#endif
