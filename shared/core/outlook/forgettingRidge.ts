// Least squares updated one observation at a time, forgetting old ones exponentially, with a ridge penalty that pulls
// every coefficient but the intercept towards 0: with little data it predicts the (recent) mean, and it follows a
// market whose behaviour changes without ever being refitted from scratch.

export interface ForgettingRidge {
  /** Adds one observation (x[0] is the intercept's 1); older observations lose weight by the forgetting factor. */
  add(x: Float64Array, y: number): void;
  /** The prediction for x from the observations so far (0 before any). */
  predict(x: Float64Array): number;
  /** The observations' total weight after forgetting (their effective number). */
  readonly weight: number;
}

/**
 * @param dimension the number of features, the intercept's included
 * @param halfLife the number of observations after which one counts half
 * @param penalty the ridge penalty, in observations' worth of weight, on every coefficient but the intercept
 */
export function createForgettingRidge(dimension: number, halfLife: number, penalty: number): ForgettingRidge {
  const keep = Math.pow(0.5, 1 / halfLife);
  const gram = new Float64Array(dimension * dimension);
  const moment = new Float64Array(dimension);
  const coefficients = new Float64Array(dimension);
  const factor = new Float64Array(dimension * dimension);
  let weight = 0;
  let solved = true;

  function solve(): void {
    // Cholesky of gram + penalty (the intercept unpenalised but kept positive definite by a tiny term).
    for (let i = 0; i < dimension; i++) {
      for (let j = 0; j <= i; j++) {
        let sum = (gram[i * dimension + j] as number) + (i === j ? (i === 0 ? 1e-9 : penalty) : 0);
        for (let k = 0; k < j; k++) sum -= (factor[i * dimension + k] as number) * (factor[j * dimension + k] as number);
        factor[i * dimension + j] = i === j ? Math.sqrt(Math.max(sum, 1e-12)) : sum / (factor[j * dimension + j] as number);
      }
    }
    for (let i = 0; i < dimension; i++) {
      let sum = moment[i] as number;
      for (let k = 0; k < i; k++) sum -= (factor[i * dimension + k] as number) * (coefficients[k] as number);
      coefficients[i] = sum / (factor[i * dimension + i] as number);
    }
    for (let i = dimension - 1; i >= 0; i--) {
      let sum = coefficients[i] as number;
      for (let k = i + 1; k < dimension; k++) sum -= (factor[k * dimension + i] as number) * (coefficients[k] as number);
      coefficients[i] = sum / (factor[i * dimension + i] as number);
    }
    solved = true;
  }

  return {
    add(x: Float64Array, y: number): void {
      for (let i = 0; i < dimension; i++) {
        const xi = x[i] as number;
        moment[i] = (moment[i] as number) * keep + xi * y;
        for (let j = 0; j <= i; j++) gram[i * dimension + j] = (gram[i * dimension + j] as number) * keep + xi * (x[j] as number);
      }
      weight = weight * keep + 1;
      solved = false;
    },
    predict(x: Float64Array): number {
      if (weight === 0) return 0;
      if (!solved) solve();
      let sum = 0;
      for (let i = 0; i < dimension; i++) sum += (coefficients[i] as number) * (x[i] as number);
      return sum;
    },
    get weight(): number {
      return weight;
    },
  };
}
