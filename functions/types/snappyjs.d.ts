/** snappyjs ships no types: the one function the Parquet encoder calls (raw Snappy, not framed). */
declare module 'snappyjs' {
  const SnappyJS: {
    compress<T extends Uint8Array | ArrayBuffer>(input: T): T;
    uncompress<T extends Uint8Array | ArrayBuffer>(input: T, maxLength?: number): T;
  };
  export default SnappyJS;
}
