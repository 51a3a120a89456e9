// rodinia/backprop (application): Rodinia 3.1 backprop's training step (bpnn_train_cuda; learned from
// backprop_cuda.cu, written here anew), repeated for `epochs` steps on the same network: the forward pass
// from the input layer to the 16 hidden units (bpnn_layerforward_CUDA, library kernel
// rodinia/backprop_layerforward), then on the host the partial sums, the output layer and the errors, then
// the weight update (bpnn_adjust_weights_cuda, rodinia/backprop_adjust_weights). The input units, the
// (in + 1) x 17 weights and their previous values, the partial sums and the hidden deltas are the
// application's, shared by both kernels as in the source.
#include "kernels/application.hpp"

namespace numagpu::kernels {

namespace {

class BackpropApp : public Application {
 public:
  BackpropApp(const Args& a, const std::string& input)
      : Application(a, input), in_(a["in"]), epochs_(a["epochs"]) {
    if (in_ % 16) throw KernelError("argument 'in': must be a multiple of 16 (one CTA per 16 input units)");
  }

  void host() override {
    const std::string args = "in=" + std::to_string(in_) + " hid=16";
    for (std::int64_t e = 0; e < epochs_; ++e) {
      launch("layerforward", library_kernel("rodinia/backprop_layerforward", args,
                                            {{"input_cuda", bind(input_)},
                                             {"input_hidden_cuda", bind(weights_)},
                                             {"hidden_partial_sum", bind(partial_)}}));
      launch("adjust_weights", library_kernel("rodinia/backprop_adjust_weights", args,
                                              {{"hidden_delta_cuda", bind(delta_)},
                                               {"input_cuda", bind(input_)},
                                               {"input_hidden_cuda", bind(weights_)},
                                               {"input_prev_weights_cuda", bind(prev_)}}));
    }
  }

 private:
  std::int64_t in_, epochs_;
  Array<float> input_ = array<float>("input_cuda", std::uint64_t(in_ + 1));
  Array<float> weights_ =
      array<float>("input_hidden_cuda", std::uint64_t((in_ + 1) * 17), std::uint64_t(in_ + 1), 17);
  Array<float> prev_ =
      array<float>("input_prev_weights_cuda", std::uint64_t((in_ + 1) * 17), std::uint64_t(in_ + 1), 17);
  Array<float> partial_ = array<float>("hidden_partial_sum", std::uint64_t(in_ / 16 * 16));
  Array<float> delta_ = array<float>("hidden_delta_cuda", 17);
};

}  // namespace

ApplicationEntry app_rodinia_backprop() {
  return {"rodinia/backprop",
          "Rodinia 3.1 backprop's training step (layerforward, then adjust_weights) repeated `epochs` times",
          {{"in", 1 << 20, 16, 1 << 24, "input layer units (a multiple of 16)"},
           {"epochs", 1, 1, 100000, "training steps (two launches each)"}},
          "",
          [](const Args& a, const std::string& input) { return std::make_unique<BackpropApp>(a, input); }};
}

}  // namespace numagpu::kernels
