/** Types of scripts/build-cli.mjs for the TypeScript that imports it (the tests). */
export declare const DIST: string;
export declare const STAMP: string;
export declare const BUNDLE: string;
export declare function staleness(): string | undefined;
export declare function buildCli(): Promise<number>;
