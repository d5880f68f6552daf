using System.Globalization;
using Tank.Cpu;

namespace Lab.Bench;

/// <summary>
/// A cgroup v1 group made for one bench run, under the group this process is in: a CPU quota (the
/// cpu controller's CFS bandwidth) or a set of cores (cpuset). Whole processes go in, each with its
/// descendants; <see cref="Dispose"/> puts them back in the parent group and removes the group, so
/// a run leaves no group behind. Needs root and the controller mounted at /sys/fs/cgroup/NAME.
/// </summary>
public sealed class CpuGroup : IDisposable
{
    public const string Mount = "/sys/fs/cgroup";
    private const long PeriodUs = 100_000;
    private readonly string _parent;

    private CpuGroup(string controller, string name, string mount)
    {
        var controllerRoot = System.IO.Path.Combine(mount, controller);
        if (!File.Exists(System.IO.Path.Combine(controllerRoot, "cgroup.procs")))
            throw new InvalidOperationException($"the cgroup v1 {controller} controller is not mounted at {controllerRoot}");
        _parent = System.IO.Path.Combine(controllerRoot, OwnGroup(controller).TrimStart('/'));
        Path = System.IO.Path.Combine(_parent, name);
        if (Directory.Exists(Path)) Empty(Path, _parent); // left by a run that was killed: its settings go too
        Directory.CreateDirectory(Path);
    }

    /// <summary>The group's folder.</summary>
    public string Path { get; }

    /// <summary>A group whose processes together get at most <paramref name="cores"/> cores (cpu.cfs_quota_us over a 100-ms period).</summary>
    public static CpuGroup Quota(string name, double cores, string mount = Mount)
    {
        if (cores <= 0) throw new ArgumentOutOfRangeException(nameof(cores), "a quota must be above zero");
        var group = new CpuGroup("cpu", name, mount);
        group.Write("cpu.cfs_period_us", PeriodUs.ToString(CultureInfo.InvariantCulture));
        group.Write("cpu.cfs_quota_us", ((long)Math.Round(cores * PeriodUs)).ToString(CultureInfo.InvariantCulture));
        return group;
    }

    /// <summary>A group whose processes run only on <paramref name="cpus"/> (a cpuset list such as "1" or "1-3").</summary>
    public static CpuGroup Cores(string name, string cpus, string mount = Mount)
    {
        var group = new CpuGroup("cpuset", name, mount);
        // A cpuset takes no process before it has memory nodes: the parent's.
        group.Write("cpuset.mems", File.ReadAllText(System.IO.Path.Combine(group._parent, "cpuset.mems")).Trim());
        group.Write("cpuset.cpus", cpus);
        return group;
    }

    /// <summary>The cores a new cpuset under this process's own group may use, as a list.</summary>
    public static IReadOnlyList<int> AvailableCpus(string mount = Mount) =>
        ParseCpuList(File.ReadAllText(System.IO.Path.Combine(mount, "cpuset", OwnGroup("cpuset").TrimStart('/'), "cpuset.effective_cpus")));

    /// <summary>"0-2,5" → 0, 1, 2, 5.</summary>
    public static IReadOnlyList<int> ParseCpuList(string text) =>
        [.. text.Trim().Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).SelectMany(range =>
        {
            var ends = range.Split('-');
            var first = int.Parse(ends[0], CultureInfo.InvariantCulture);
            var last = ends.Length > 1 ? int.Parse(ends[1], CultureInfo.InvariantCulture) : first;
            return Enumerable.Range(first, last - first + 1);
        })];

    /// <summary>Puts a process, its threads and every process below it in the group; children it forks later follow it there.</summary>
    public void AddTree(int pid)
    {
        var all = CpuMeter.ReadAll("/proc");
        var children = all.Values.ToLookup(p => p.ParentPid);
        var pending = new Stack<int>([pid]);
        var seen = new HashSet<int>();
        Move(pid, Path, mustExist: true);
        foreach (var child in children[pid]) pending.Push(child.Pid);
        while (pending.Count > 0)
        {
            var current = pending.Pop();
            if (!seen.Add(current)) continue;
            Move(current, Path, mustExist: false);
            foreach (var child in children[current]) pending.Push(child.Pid);
        }
    }

    /// <summary>Puts one process (every thread of it) in the group; what it starts afterwards starts there too.</summary>
    public void Add(int pid) => Move(pid, Path, mustExist: true);

    /// <summary>The processes in the group now.</summary>
    public IReadOnlyList<int> Processes() => ReadPids(Path);

    public void Dispose()
    {
        if (Directory.Exists(Path)) Empty(Path, _parent);
    }

    // Moves every process back to the parent, then removes the folder (a process still exiting can keep it busy for a moment).
    private static void Empty(string group, string parent)
    {
        for (var attempt = 0; ; attempt++)
        {
            foreach (var pid in ReadPids(group)) Move(pid, parent, mustExist: false);
            try
            {
                Directory.Delete(group);
                return;
            }
            catch (IOException) when (attempt < 20)
            {
                Thread.Sleep(50);
            }
        }
    }

    private void Write(string file, string value) => File.WriteAllText(System.IO.Path.Combine(Path, file), value);

    private static void Move(int pid, string group, bool mustExist)
    {
        try
        {
            File.WriteAllText(System.IO.Path.Combine(group, "cgroup.procs"), pid.ToString(CultureInfo.InvariantCulture));
        }
        catch (IOException) when (!mustExist)
        {
            // The process exited between the listing and the move.
        }
    }

    private static List<int> ReadPids(string group) =>
        [.. File.ReadAllLines(System.IO.Path.Combine(group, "cgroup.procs")).Where(l => l.Length > 0).Select(l => int.Parse(l, CultureInfo.InvariantCulture))];

    // This process's group of the controller, from /proc/self/cgroup ("3:cpuset:/" or "1:cpu,cpuacct:/x").
    private static string OwnGroup(string controller) =>
        File.ReadLines("/proc/self/cgroup")
            .Select(line => line.Split(':', 3))
            .FirstOrDefault(parts => parts.Length == 3 && parts[1].Split(',').Contains(controller))?[2] ?? "/";
}
