// A parsed PTX module: its variables and functions, every instruction decoded once into a compact form
// (register indices into a dense per-thread register file, types and modifiers as enums) so that executing
// it does no string work. parse_module() refuses (ParseError, file.ptx:line:column) whatever it does not
// decode; Kernel (ptx/kernel.hpp) flattens an entry and its calls into one instruction list.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ptx/execute.hpp"

namespace numagpu::ptx {

inline constexpr std::uint32_t kNoReg = ~0u;

// The value types of PTX instructions and registers. kB* are untyped bits, kU*/kS* integers.
enum class Type : std::uint8_t {
  kNone,
  kPred,
  kB8,
  kB16,
  kB32,
  kB64,
  kU8,
  kU16,
  kU32,
  kU64,
  kS8,
  kS16,
  kS32,
  kS64,
  kF16,
  kF16x2,
  kF32,
  kF64,
};
// Bytes of a value of the type (a predicate: 1).
inline unsigned type_bytes(Type t) {
  constexpr unsigned char kBytes[] = {0, 1, 1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 4, 8};
  return kBytes[static_cast<unsigned>(t)];
}
inline bool is_float(Type t) {
  return t >= Type::kF16;
}
inline bool is_signed(Type t) {
  return t >= Type::kS8 && t <= Type::kS64;
}
const char* to_string(Type t);

// The state spaces of ld/st/atom/cvta/mov. kParam: the entry's parameters (LaunchSpec::params); kFrame: the
// per-thread .param storage of a call (its arguments and return values).
enum class Space : std::uint8_t { kGeneric, kGlobal, kShared, kLocal, kConst, kParam, kFrame };

enum class Op : std::uint8_t {
  kNop,
  // integer and floating-point arithmetic
  kAdd,
  kSub,
  kMul,
  kMad,
  kMul24,
  kMad24,
  kSad,
  kDiv,
  kRem,
  kAbs,
  kNeg,
  kMin,
  kMax,
  kFma,
  kCopysign,
  kTestp,
  // bits
  kPopc,
  kClz,
  kBfind,
  kBrev,
  kBfe,
  kBfi,
  kPrmt,
  kAnd,
  kOr,
  kXor,
  kNot,
  kCnot,
  kShl,
  kShr,
  kShf,
  kLop3,
  // compare and select
  kSetp,
  kSelp,
  kSet,
  kSlct,
  // conversion and moves
  kCvt,
  kCvta,
  kMov,
  kMovClock,
  kPack,
  kUnpack,
  // special functions
  kRcp,
  kSqrt,
  kRsqrt,
  kSin,
  kCos,
  kLg2,
  kEx2,
  kTanh,
  // memory
  kLd,
  kSt,
  kAtom,
  kRed,
  // warp and CTA
  kBar,
  kWarpSync,
  kMembar,
  kShfl,
  kVote,
  kActivemask,
  // control
  kBra,
  kCall,
  kRet,
  kExit,
  kTrap,
};

// Modifiers (Instr::mode) by instruction: which half of a product (mul, mad), a comparison (setp, set, slct),
// a rounding (cvt, fp arithmetic), an atomic operation, a shuffle or vote mode.
enum class MulMode : std::uint8_t { kLo, kHi, kWide };
enum class Cmp : std::uint8_t {
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kLo,
  kLs,
  kHi,
  kHs,
  kEqu,
  kNeu,
  kLtu,
  kLeu,
  kGtu,
  kGeu,
  kNum,
  kNan
};
enum class BoolOp : std::uint8_t { kNone, kAnd, kOr, kXor };
enum class Round : std::uint8_t { kDefault, kRn, kRz, kRm, kRp, kRni, kRzi, kRmi, kRpi };
enum class AtomOp : std::uint8_t { kAdd, kMin, kMax, kExch, kCas, kAnd, kOr, kXor, kInc, kDec };
enum class ShflMode : std::uint8_t { kUp, kDown, kBfly, kIdx };
enum class VoteMode : std::uint8_t { kAll, kAny, kUni, kBallot };
enum class Special : std::uint8_t {
  kTidX,
  kTidY,
  kTidZ,
  kNtidX,
  kNtidY,
  kNtidZ,
  kCtaidX,
  kCtaidY,
  kCtaidZ,
  kNctaidX,
  kNctaidY,
  kNctaidZ,
  kLaneid,
  kWarpid,
  kNwarpid,
  kSmid,
  kNsmid,
  kGridid,
  kLanemaskEq,
  kLanemaskLe,
  kLanemaskLt,
  kLanemaskGe,
  kLanemaskGt,
  kClock,
  kClock64,
  kGlobaltimer,
  kCount
};

// Instr::flags bits.
enum : std::uint16_t {
  kFtz = 1 << 0,
  kSat = 1 << 1,
  kApprox = 1 << 2,
  kUni = 1 << 3,        // bra.uni
  kGuardNeg = 1 << 4,   // @!%p
  kToSpace = 1 << 5,    // cvta.to.<space>
  kShfClamp = 1 << 6,   // shf.clamp (else wrap)
  kShfRight = 1 << 7,   // shf.r (else l)
  kFull = 1 << 8,       // div.full
  kNaN = 1 << 9,        // min/max.NaN
  kCarryIn = 1 << 10,   // addc, subc, madc: + CC.CF (the flattening adds the carry register as a source)
  kCarryOut = 1 << 11,  // .cc: writes CC.CF (the flattening adds the carry register as a destination)
};

// A source operand or an address. As parsed, an operand is a register, an immediate (its bits in the
// instruction's type), a special register or a symbol (Function::symbols: a variable's or parameter's
// address); an address is a base register (or none), a symbol (or none) and an offset. Kernel's flattening
// makes every source operand a register (immediates, special registers and variable addresses become
// registers of their own) and every address a base register (or kNoReg) plus `imm`.
struct Operand {
  enum class Kind : std::uint8_t { kNone, kReg, kImm, kSpecial, kSymbol };
  Kind kind = Kind::kNone;
  bool negate = false;         // !%p as a source predicate
  std::uint32_t reg = kNoReg;  // kReg, or an address's base register (kNoReg: none)
  std::uint32_t sym = 0;       // kSymbol: Function::symbols index; kSpecial: Special
  std::int64_t imm = 0;        // kImm: the bits; an address: its offset
};

struct Instr {
  Op op = Op::kNop;
  Type type = Type::kNone;   // the instruction's (destination) type
  Type type2 = Type::kNone;  // cvt's source type, setp/set/slct's compare type, selp/bfe etc. unused
  std::uint8_t mode = 0;     // MulMode, Cmp, Round (cvt, fp arithmetic), AtomOp, ShflMode, VoteMode
  std::uint8_t bool_op = 0;  // setp/set: BoolOp
  Space space = Space::kGeneric;
  std::uint8_t vec = 1;  // ld/st vector width (1, 2, 4)
  std::uint8_t ndst = 0, nsrc = 0;
  std::uint16_t flags = 0;
  std::uint32_t guard = kNoReg;  // @%p (kGuardNeg: @!%p)
  std::uint32_t dst[4] = {kNoReg, kNoReg, kNoReg, kNoReg};
  Operand src[4];
  Operand addr;              // ld/st/atom/red address
  std::uint32_t target = 0;  // bra, a callee's ret: the target pc; call (as parsed): Function::calls index
  std::uint32_t line = 0, column = 0;
  std::uint32_t text = 0;  // Module::opcodes index: the opcode as written, for messages
};

// A .reg, .local, .shared or .param name a function's instructions refer to.
struct Symbol {
  enum class Kind : std::uint8_t {
    kModuleVariable,  // Module::variables[index] (.global, .const, .shared at module level)
    kShared,          // the function's own .shared variable (locals[index])
    kLocal,           // the function's .local variable (locals[index])
    kFrame,           // a .param declared in the body for a call (locals[index])
    kParam,           // the function's parameter (params[index])
    kReturn,          // the function's return value (returns[index])
    kFunction,        // Module::functions[index]
  };
  Kind kind;
  std::uint32_t index;
};

struct LocalVariable {
  std::string name;
  Space space;
  std::uint64_t bytes = 0;
  std::uint32_t align = 1;
  bool dynamic = false;  // extern .shared x[]: the launch's dynamic shared memory
};

// One call site: the callee and the .param symbols passed (Function::symbols indices).
struct CallSite {
  std::uint32_t callee = 0;  // Module::functions index
  std::vector<std::uint32_t> returns, arguments;
};

struct Function {
  std::string name;
  bool is_entry = false;
  bool defined = false;  // has a body (else a declaration: an .extern function such as vprintf)
  std::uint32_t line = 0, column = 0;
  std::vector<ParamInfo> params;   // entry: offsets in LaunchSpec::params (CUDA ABI); func: frame layout
  std::vector<ParamInfo> returns;  // .func return values
  std::uint32_t registers = 0;     // dense register indices 0..registers-1
  std::vector<std::uint8_t> register_bits;  // each register's width: 1 (pred), 16, 32, 64
  std::vector<LocalVariable> locals;
  std::vector<Symbol> symbols;
  std::vector<CallSite> calls;
  std::vector<Instr> code;
};

struct Module {
  std::string file;
  std::vector<VariableInfo> variables;
  std::vector<Function> functions;
  std::vector<std::string> opcodes;  // the opcodes as written (Instr::text)
  const Function* find(const std::string& name) const;
};

// Parses PTX text (clang 14's and nvcc's). `file` names it in messages. Throws ParseError.
std::shared_ptr<const Module> parse_module(std::string_view text, const std::string& file);

const std::vector<VariableInfo>& module_variables(const Module& m);

}  // namespace numagpu::ptx
