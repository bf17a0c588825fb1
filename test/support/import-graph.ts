import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";

/** A module graph: each file's absolute path to the files it imports, relative imports only. */
export type ImportGraph = Map<string, string[]>;

/** Every `.ts` file under `dir`, recursively, sorted so that reports are stable. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return tsFiles(path);
      return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
    });
}

/**
 * The module specifiers a file names: imports and re-exports (type-only ones included, since
 * a type cycle ties the modules together as much as a value one), `import()` calls and
 * `import("…")` type references. TypeScript's own pre-processor finds them from the tokens,
 * without building a syntax tree.
 */
export function specifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((reference) => reference.fileName);
}

/** The file a relative specifier names, written the NodeNext way (`./x.js` for `./x.ts`). */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** The graph of relative imports between the given files; imports leaving the set are left out. */
export function importGraph(files: readonly string[]): ImportGraph {
  const inSet = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const targets = specifiers(readFileSync(file, "utf8"))
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => resolveSpecifier(file, specifier))
      .filter((target): target is string => target !== undefined && inSet.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The graph of workspace packages (by name) whose sources import one another, from each
 * package folder's `src/`: a cycle here is a cycle between published packages.
 */
export function packageGraph(dirs: readonly string[]): ImportGraph {
  const names = new Map(
    dirs.map((dir) => [dir, JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name as string]),
  );
  const known = new Set(names.values());
  const graph: ImportGraph = new Map();
  for (const [dir, name] of names) {
    const imported = tsFiles(join(dir, "src"))
      .flatMap((file) => specifiers(readFileSync(file, "utf8")))
      .map((specifier) => specifier.split("/").slice(0, 2).join("/"))
      .filter((target) => known.has(target) && target !== name);
    graph.set(name, [...new Set(imported)].sort());
  }
  return graph;
}

/**
 * The strongly connected components of more than one module, plus modules importing
 * themselves: each is one knot of cycles (Tarjan's algorithm, iterative so that a deep
 * import chain cannot overflow the stack).
 */
export function cyclicComponents(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const frames: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as { node: string; edge: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++] as string;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          frames.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(to) as number));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) components.push(component.sort());
    }
  }
  return components;
}

/** One shortest cycle through `start` inside its component, found breadth first, start repeated at the end. */
export function shortestCycle(graph: ImportGraph, component: readonly string[]): string[] {
  const members = new Set(component);
  const start = component[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at] as string;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0] as string) as string);
        return [...path, start];
      }
      if (cameFrom.has(to)) continue;
      cameFrom.set(to, node);
      queue.push(to);
    }
  }
  return [start];
}

/** Each import knot as one readable line: its modules, then one cycle through them, each named by `name`. */
export function describeCycles(
  graph: ImportGraph,
  name: (node: string) => string = (node) => node,
): string[] {
  return cyclicComponents(graph).map(
    (component) =>
      `${component.length} modules {${component.map(name).join(", ")}}: ${shortestCycle(graph, component).map(name).join(" -> ")}`,
  );
}
