namespace Tank.Cpu;

/// <summary>
/// Reads the CPU time of process trees from /proc. A tree's time is the process's own user and
/// system time, the time of the children it has reaped (cutime/cstime), and, recursively, the
/// same for every live child. A child that exits between two readings moves from "live child" to
/// its parent's reaped time, so the difference of two readings counts it once: PostgreSQL's
/// backends come and go with connections and are all counted. A live descendant that is a target
/// of its own is left out of its ancestor's tree, so the trees never overlap: the lab runs the runner
/// in its own process and starts the service as its child, and without this the generator ("tank",
/// the lab's tree) was charged the service's CPU as well as its own.
/// </summary>
public sealed class CpuMeter(IReadOnlyList<CpuTarget> targets, string procRoot = "/proc")
{
    /// <summary>
    /// /proc reports times in USER_HZ ticks, which Linux fixes at 100 for user space on every
    /// architecture whatever the kernel's internal HZ.
    /// </summary>
    public const double TicksPerSecond = Harness.Processes.HostStat.TicksPerSecond;

    private Dictionary<string, long?>? _before;
    private long _startTicks;

    public IReadOnlyList<CpuTarget> Targets => targets;

    public void Start()
    {
        _before = Read();
        _startTicks = Environment.TickCount64;
    }

    /// <summary>Usage since <see cref="Start"/>; a process that was not there at either reading is left out.</summary>
    public (IReadOnlyList<CpuUsage> Usage, double WallSeconds) Stop()
    {
        var after = Read();
        var wall = (Environment.TickCount64 - _startTicks) / 1000.0;
        var usage = targets
            .Where(t => _before?[t.Name] is not null && after[t.Name] is not null)
            .Select(t => new CpuUsage(t.Name, t.Pid, Math.Max(0, after[t.Name]!.Value - _before![t.Name]!.Value) / TicksPerSecond))
            .ToList();
        return (usage, wall);
    }

    public Dictionary<string, long?> Read()
    {
        var all = ReadAll(procRoot);
        var children = all.Values.ToLookup(s => s.ParentPid);
        var separate = targets.Select(t => t.Pid).ToHashSet();
        return targets.ToDictionary(t => t.Name, t => all.ContainsKey(t.Pid) ? TreeTicks(t.Pid, all, children, separate) : (long?)null);
    }

    /// <summary>
    /// The tree's ticks; a descendant in <paramref name="separate"/> (another target) is left out with
    /// its whole subtree, as that target counts it.
    /// </summary>
    public static long TreeTicks(int pid, IReadOnlyDictionary<int, ProcStat> all, ILookup<int, ProcStat> children, IReadOnlySet<int>? separate = null)
    {
        var total = 0L;
        var pending = new Stack<int>([pid]);
        var seen = new HashSet<int>();
        while (pending.Count > 0)
        {
            var current = pending.Pop();
            if (!seen.Add(current) || !all.TryGetValue(current, out var stat)) continue;
            total += stat.OwnAndReapedTicks;
            foreach (var child in children[current])
                if (separate is null || !separate.Contains(child.Pid)) pending.Push(child.Pid);
        }
        return total;
    }

    /// <summary>Every process's stat line; processes that vanish while being read are skipped.</summary>
    public static Dictionary<int, ProcStat> ReadAll(string procRoot)
    {
        var result = new Dictionary<int, ProcStat>();
        foreach (var dir in Directory.EnumerateDirectories(procRoot))
        {
            var name = Path.GetFileName(dir);
            if (name.Length == 0 || !name.All(char.IsAsciiDigit)) continue;
            try
            {
                var stat = ProcStat.Parse(File.ReadAllText(Path.Combine(dir, "stat")).TrimEnd('\n'));
                result[stat.Pid] = stat;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException) { }
        }
        return result;
    }
}
