/**
 * The last result of `compute`, for as long as it is asked about the same input (by identity): the
 * derived lookups over a list that is replaced, never changed in place (a catalog, a tool list).
 */
export function memoLast<I, O>(compute: (input: I) => O): (input: I) => O {
  let last: { input: I; output: O } | undefined;
  return (input) => {
    if (last === undefined || last.input !== input) last = { input, output: compute(input) };
    return last.output;
  };
}
