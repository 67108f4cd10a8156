/**
 * One value per context, made at its first use: the batchers of a module are per process (one
 * context each; tests run several in one), and made by whoever first needs them.
 */
export function perContext<C extends object, V>(make: (ctx: C) => V): (ctx: C) => V {
  const made = new WeakMap<C, V>();
  return (ctx) => {
    let value = made.get(ctx);
    if (value === undefined) made.set(ctx, (value = make(ctx)));
    return value;
  };
}
