// A machine configuration of fake resources stacked in levels, for start-up and memory benchmarks:
// each level holds sensors and generic components in turn, and every resource above the first
// level depends on one or two resources of the level below, so the graph engine builds level by
// level as a real machine with dependencies would.
export interface LayeredFakeConfig {
  config: { components: FakeComponent[] };
  /** Every resource's name, in the order configured. */
  names: string[];
  /** A sensor of the top level: nothing depends on it, so changing it rebuilds it alone. */
  topSensor: string;
}

export interface FakeComponent {
  name: string;
  api: string;
  model: "fake";
  attributes: Record<string, unknown>;
  depends_on: string[];
}

export function layeredFakeConfig(count: number, levels: number): LayeredFakeConfig {
  const perLevel = Math.ceil(count / levels);
  const components: FakeComponent[] = [];
  let below: string[] = [];
  for (let level = 0; level < levels && components.length < count; level++) {
    const here: string[] = [];
    for (let i = 0; i < perLevel && components.length < count; i++) {
      const sensor = i % 2 === 0;
      const name = `${sensor ? "sensor" : "generic"}-${level}-${i}`;
      // Two dependencies for two resources in three, one for the third.
      const depends_on = below.length === 0 ? [] : i % 3 === 2 ? [below[i % below.length]!] : [below[i % below.length]!, below[(i + 1) % below.length]!];
      components.push({
        name,
        api: sensor ? "rdk:component:sensor" : "rdk:component:generic",
        model: "fake",
        attributes: sensor ? { readings: { level, index: i } } : {},
        depends_on: [...new Set(depends_on)],
      });
      here.push(name);
    }
    below = here;
  }
  const topSensor = below.find((name) => name.startsWith("sensor-"));
  if (!topSensor) throw new Error("the top level holds no sensor");
  return { config: { components }, names: components.map((c) => c.name), topSensor };
}

/** The same configuration with one component's attributes replaced. */
export function withAttributes(config: { components: FakeComponent[] }, name: string, attributes: Record<string, unknown>): { components: FakeComponent[] } {
  return { components: config.components.map((c) => (c.name === name ? { ...c, attributes } : c)) };
}
