// comlink ships types for its Node adapter beside the .mjs file that Node imports by name.
declare module 'comlink/dist/esm/node-adapter.mjs' {
	import nodeEndpoint from 'comlink/dist/esm/node-adapter';
	export default nodeEndpoint;
}
