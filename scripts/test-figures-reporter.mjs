/**
 * A node:test reporter that `npm test` runs beside the usual one (scripts/test.ts): of what the test files print to
 * stdout, it passes on only the lines that look like figures (a JSON object opening with a `bench`, `fault` or `crash`
 * key; scripts/figures.ts checks them), one per line, to its destination file.
 * Plain JavaScript: node loads reporters before any loader hook (tsx) is in place, in the runner and in every test
 * file's process.
 */
const FIGURE = /^\{"(bench|fault|crash)":/;

export default async function* figuresReporter(source) {
  for await (const event of source) {
    if (event.type !== "test:stdout" || typeof event.data?.message !== "string") continue;
    for (const line of event.data.message.split("\n")) if (FIGURE.test(line.trim())) yield `${line.trim()}\n`;
  }
}
