// Nothing is registered globally for tests: a test that parses YAML the fast scanner cannot read
// passes the library as the `yaml` option (test/helpers/yaml.ts), or imports a public entry,
// which binds it.
