namespace Beanstalkd.Client;

/// <summary>The commands the client sends; each expects its own replies (<see cref="BeanstalkdReplyParser"/>).</summary>
internal enum BeanstalkdCommand
{
    /// <summary><c>put &lt;pri&gt; 0 &lt;ttr&gt; &lt;bytes&gt;</c> + body: INSERTED &lt;id&gt;.</summary>
    Put,

    /// <summary><c>reserve-with-timeout 0</c>: RESERVED &lt;id&gt; &lt;bytes&gt; + body, or TIMED_OUT / DEADLINE_SOON.</summary>
    Reserve,

    /// <summary><c>delete &lt;id&gt;</c>: DELETED.</summary>
    Delete,

    /// <summary><c>release &lt;id&gt; &lt;pri&gt; 0</c>: RELEASED (a reservation handed back: a lease's, or one whose caller gave up).</summary>
    Release,

    /// <summary><c>touch &lt;id&gt;</c>: TOUCHED (the reservation's time-to-run starts again).</summary>
    Touch,

    /// <summary><c>stats-tube &lt;tube&gt;</c>: OK &lt;bytes&gt; + YAML, or NOT_FOUND while the tube does not exist.</summary>
    StatsTube,

    /// <summary><c>list-tube-used</c>: USING &lt;tube&gt;.</summary>
    ListTubeUsed,

    /// <summary><c>use &lt;tube&gt;</c>: USING &lt;tube&gt;.</summary>
    Use,

    /// <summary><c>watch &lt;tube&gt;</c>: WATCHING &lt;count&gt;.</summary>
    Watch,

    /// <summary><c>ignore default</c>: WATCHING &lt;count&gt;.</summary>
    IgnoreDefault,
}
