/** How arrays go into the query string (CONTRACT §1, configurable `api.arrayFormat`). */
export type ArrayFormat = 'repeat' | 'comma' | 'brackets';
