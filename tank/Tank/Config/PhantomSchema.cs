namespace Tank.Config;

/// <summary>
/// The option names and types of Tank 2.0.14's phantom schema (plugins/Phantom/config/schema.py)
/// plus the plugin keys every section has. Cerberus rejects anything else, so do we.
/// </summary>
internal static class PhantomSchema
{
    public static readonly IReadOnlyDictionary<string, string> Options = new Dictionary<string, string>
    {
        ["enabled"] = "boolean", ["package"] = "string",
        ["additional_libs"] = "list", ["address"] = "string", ["autocases"] = "int|string", ["affinity"] = "string",
        ["ammo_limit"] = "integer", ["ammo_type"] = "string", ["ammofile"] = "string", ["buffered_seconds"] = "integer",
        ["cache_dir"] = "nullable-string", ["chosen_cases"] = "string", ["client_certificate"] = "string",
        ["client_cipher_suites"] = "string", ["client_key"] = "string", ["config"] = "string",
        ["connection_test"] = "boolean", ["enum_ammo"] = "boolean", ["file_cache"] = "integer",
        ["force_stepping"] = "integer", ["gatling_ip"] = "string", ["header_http"] = "string", ["headers"] = "list",
        ["instances"] = "integer", ["loop"] = "integer", ["method_options"] = "string", ["method_prefix"] = "string",
        ["phantom_http_entity"] = "string", ["phantom_http_field"] = "string", ["phantom_http_field_num"] = "integer",
        ["phantom_http_line"] = "string", ["phantom_modules_path"] = "string", ["phantom_path"] = "string",
        ["phout_file"] = "string", ["port"] = "string", ["load_profile"] = "dict", ["source_log_prefix"] = "string",
        ["ssl"] = "boolean", ["threads"] = "nullable-integer", ["tank_type"] = "string", ["timeout"] = "string",
        ["uris"] = "list", ["use_caching"] = "boolean", ["writelog"] = "string", ["multi"] = "any",
    };

    public static readonly IReadOnlySet<string> LoadProfileKeys = new HashSet<string> { "load_type", "schedule" };

    public static readonly IReadOnlySet<string> AutostopKeys = new HashSet<string> { "enabled", "package", "autostop", "report_file" };

    /// <summary>Sections (plugins) a Tank 2.0 config may carry; we only interpret phantom and autostop.</summary>
    public static readonly IReadOnlySet<string> Sections = new HashSet<string>
    {
        "core", "phantom", "autostop", "telegraf", "console", "overload", "uploader", "offline_report", "shootexec",
        "shellexec", "rcheck", "json_report", "influx", "bfg", "pandora", "jmeter", "ab", "tank", "aggregator",
        "resource_check", "platform", "rc_check", "metaconf", "neuploader", "openstack", "android", "battlemap",
    };
}
