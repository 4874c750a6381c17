// count.mjs reads file paths, one per line, on standard input and prints a
// JSON line per file: its path, its size in bytes and its token count in
// each tokenizer of package.json (no special tokens added).
import { TokenizerLoader } from "@lenml/tokenizers";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const names = ["qwen2_5", "qwen3", "llama3", "llama2", "deepseek_v3", "gemma2", "gemma3", "mistral_nemo"];
const tokenizers = {};
for (const n of names) {
  const dir = path.join(here, "node_modules", "@lenml", `tokenizer-${n}`, "models");
  tokenizers[n] = TokenizerLoader.fromPreTrained({
    tokenizerJSON: JSON.parse(fs.readFileSync(path.join(dir, "tokenizer.json"), "utf8")),
    tokenizerConfig: JSON.parse(fs.readFileSync(path.join(dir, "tokenizer_config.json"), "utf8")),
  });
}
for (const file of fs.readFileSync(0, "utf8").split("\n").filter(Boolean)) {
  const text = fs.readFileSync(file, "utf8");
  const counts = {};
  for (const n of names) {
    counts[n] = tokenizers[n].encode(text, { add_special_tokens: false }).length;
  }
  console.log(JSON.stringify({ path: file, bytes: Buffer.byteLength(text), counts }));
}
