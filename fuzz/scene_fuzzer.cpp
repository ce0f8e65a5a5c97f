/// libFuzzer target of the scene loader (apps/scene_file.hpp): any bytes either load into a scene or
/// are refused with std::invalid_argument (an error at a JSON path); no other exception, crash,
/// leak or hang. What loads also builds its model (parse_scene does), writes as JSON and loads
/// again to the same text. Built with -DNOETHER_FUZZ=ON and clang; scripts/fuzz_scenes.sh runs it.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <noether/apps/scene_file.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const noether::Scene scene = noether::parse_scene(text, "fuzz.json");
    const std::string json = noether::scene_json(scene);
    if (noether::scene_json(noether::parse_scene(json, "again.json")) != json) __builtin_trap();
  } catch (const std::invalid_argument&) {
    // A refusal naming what is wrong: the expected outcome for most inputs.
  }
  return 0;
}
