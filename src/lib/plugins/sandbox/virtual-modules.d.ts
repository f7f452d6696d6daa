// Built by src/vite/plugin-runtime-source.js: the isolated plugin runtime as one classic script.
declare module 'virtual:plugin-runtime-source' {
	const source: string;
	export default source;
}
