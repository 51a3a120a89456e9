/* numagpu_policy_dpi: the reference models of the two policy blocks (models/policy: LinkBalancer,
 * PartitionController) behind a C interface that SystemVerilog imports through DPI-C, so a testbench of one's
 * own (plain SystemVerilog or UVM, any simulator with DPI-C) can use them as its scoreboard.
 * tb/dpi/numagpu_policy_pkg.sv declares these functions for SystemVerilog; docs/rtl.md shows how to use them.
 *
 * Types follow IEEE 1800 Annex H: `int unsigned` is unsigned int, `longint unsigned` is unsigned long long,
 * `bit` is svBit (unsigned char, 0 or 1), `byte unsigned` is unsigned char, `chandle` is void*, `string` is
 * const char*. The library does not include svdpi.h, so it builds without any simulator installed.
 *
 * Each model is an opaque handle from *_new (NULL when a parameter is out of range: numagpu_policy_error()
 * then names it), released with *_free. Timing is the RTL's: *_outputs are the registered outputs of the
 * current cycle; *_step is one rising edge with rst_ni high and the given inputs, *_reset one with rst_ni
 * low. Decision codes are the RTL's decision_o values (docs/policies.md). */
#ifndef NUMAGPU_POLICY_DPI_H
#define NUMAGPU_POLICY_DPI_H

#ifdef __cplusplus
extern "C" {
#endif

/* Why the last *_new failed (empty after a success); owned by the library. */
const char* numagpu_policy_error(void);

/* Link balancer (rtl/link_balancer.sv). */
void* numagpu_lb_new(unsigned lanes, unsigned sample_cycles, unsigned switch_cycles, unsigned sat_num,
                     unsigned sat_den);
void numagpu_lb_free(void* lb);
void numagpu_lb_reset(void* lb);
void numagpu_lb_step(void* lb, unsigned char kernel_launch, unsigned char busy_a, unsigned char busy_b,
                     unsigned char drained);
void numagpu_lb_outputs(void* lb, unsigned* lanes_a, unsigned* lanes_b, unsigned long long* lane_dir,
                        unsigned long long* lane_quiesce, unsigned long long* lane_switch,
                        unsigned char* decision_valid, unsigned char* decision);
/* State a constrained-random stimulus may aim at: position in the window, busy counts so far, and the busy
 * count that saturates a direction. */
unsigned numagpu_lb_window_cycle(void* lb);
unsigned numagpu_lb_busy_a_count(void* lb);
unsigned numagpu_lb_busy_b_count(void* lb);
unsigned long long numagpu_lb_threshold(void* lb);
/* Window ends that took decision `code` so far (reset keeps them). */
unsigned long long numagpu_lb_coverage(void* lb, unsigned code);

/* Cache partition controller (rtl/cache_partition_ctrl.sv). */
void* numagpu_pc_new(unsigned ways, unsigned sample_cycles, unsigned sat_num, unsigned sat_den,
                     unsigned resp_bytes, unsigned ingress_bytes_per_cycle);
void numagpu_pc_free(void* pc);
void numagpu_pc_reset(void* pc);
void numagpu_pc_step(void* pc, unsigned char kernel_launch, unsigned char dram_busy, unsigned read_reqs);
void numagpu_pc_outputs(void* pc, unsigned* remote_ways, unsigned* local_ways, unsigned long long* remote_mask,
                        unsigned char* decision_valid, unsigned char* decision);
unsigned numagpu_pc_window_cycle(void* pc);
unsigned numagpu_pc_dram_busy_count(void* pc);
unsigned long long numagpu_pc_read_req_count(void* pc);
unsigned long long numagpu_pc_dram_threshold(void* pc);
unsigned long long numagpu_pc_link_threshold(void* pc);
unsigned long long numagpu_pc_coverage(void* pc, unsigned code);

#ifdef __cplusplus
}
#endif

#endif /* NUMAGPU_POLICY_DPI_H */
