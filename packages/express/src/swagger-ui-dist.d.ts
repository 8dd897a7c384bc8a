/** swagger-ui-dist ships no types; this file of it only names the folder of its assets. */
declare module 'swagger-ui-dist/absolute-path.js' {
  const getAbsoluteFSPath: () => string;
  export default getAbsoluteFSPath;
}
