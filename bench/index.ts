/** npm run bench [-- --quick | --soak [--seconds N]]: the benchmark, or the soak. */
await import(process.argv.includes('--soak') ? './soak.js' : './run.js');
