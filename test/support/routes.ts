/**
 * The v2 routes that reject a request without `metrics` (routes 3, 4, 6, 7, 9 and 10 of the API
 * document), written here once for the tests of the product's route table and of the simulator's.
 */
export const PERFORMANCE_ROUTES = [
  'instances/performance',
  'instances/performance-over-time',
  'campaigns/performance',
  'platforms/performance',
  'creators/performance',
  'posts/performance',
] as const;
