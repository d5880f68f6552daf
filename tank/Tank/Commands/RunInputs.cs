using Tank.Ammo;
using Tank.Config;

namespace Tank.Commands;

/// <summary>The files <c>tank run</c> reads besides the config (its ammo) and the copy of the config it leaves with the results.</summary>
public static class RunInputs
{
    public static List<AmmoRequest> LoadAmmo(LoadConfig config)
    {
        if (config.AmmoFile is not { Length: > 0 } file)
        {
            var host = config.Headers.Any(h => h.TrimStart('[').StartsWith("Host:", StringComparison.OrdinalIgnoreCase)) ? [] : new[] { $"[Host: {config.Address}]" };
            var text = string.Join("\n", host.Concat(config.Headers).Concat(config.Uris));
            return AmmoReader.Parse(System.Text.Encoding.UTF8.GetBytes(text), config.Path + " (phantom.uris)", AmmoFormat.Uri, config.HeaderHttp);
        }
        return AmmoReader.Read(ResolveAmmoPath(file, config.Path), config.AmmoType, config.HeaderHttp);
    }

    // Tank resolves ammofile against its working directory; we also try next to the yaml.
    private static string ResolveAmmoPath(string file, string configPath)
    {
        if (Path.IsPathRooted(file) || File.Exists(file)) return file;
        var besideConfig = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(configPath))!, file);
        return File.Exists(besideConfig) ? besideConfig : file;
    }

    // The exact config goes next to the results, but never over a different existing load.yaml
    // (with --out . under Tank's shootexec the working directory may hold the user's own).
    public static void CopyConfig(string configPath, string outDir)
    {
        var target = Path.Combine(outDir, "load.yaml");
        if (Path.GetFullPath(configPath) == Path.GetFullPath(target)) return;
        if (File.Exists(target) && !File.ReadAllBytes(target).SequenceEqual(File.ReadAllBytes(configPath)))
        {
            Console.Error.WriteLine($"tank: {target} exists and differs from {configPath}; not overwriting it");
            return;
        }
        File.Copy(configPath, target, overwrite: true);
    }
}
