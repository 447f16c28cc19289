using System.ComponentModel.DataAnnotations;
using Notifications.OperatorConsole.Overview;

namespace Notifications.OperatorConsole;

/// <summary>Where the console answers operators (section <c>Console</c>), and which claim says who may do what.</summary>
internal sealed class ConsoleOptions
{
    public const string SectionName = "Console";

    /// <summary>The address Kestrel binds: <c>0.0.0.0</c> in a container.</summary>
    [Required]
    public string Address { get; set; } = "127.0.0.1";

    /// <summary>The console's port; 0 picks a free one (tests).</summary>
    [Range(0, 65535)]
    public int Port { get; set; } = 8095;

    /// <summary>
    /// A PEM certificate file (the chain after the leaf): the console speaks HTTPS with it, from the stack's CA or a public one.
    /// Unset: plain HTTP, on loopback or behind a proxy that terminates TLS.
    /// </summary>
    public string? Certificate { get; set; }

    /// <summary>The PEM private key of <see cref="Certificate"/> (both or neither).</summary>
    public string? CertificateKey { get; set; }

    /// <summary>Whether the console speaks HTTPS.</summary>
    public bool Https => Certificate is { Length: > 0 };

    /// <summary>The role claim and its two values (section <c>Console:Roles</c>).</summary>
    public ConsoleRoleOptions Roles { get; set; } = new();

    /// <summary>The window of the overview's delivery rate and SLO (as <c>admin status --window</c>).</summary>
    [Range(typeof(TimeSpan), "00:00:10", "1.00:00:00")]
    public TimeSpan DeliveryWindow { get; set; } = TimeSpan.FromMinutes(5);

    /// <summary>
    /// Whether this process runs the bulk dead-letter jobs operators queue (read when services are registered). Every replica
    /// may: a job's lease keeps it to one. Off for a replica that should only serve pages.
    /// </summary>
    public bool RunJobs { get; set; } = true;

    /// <summary>
    /// The workers whose operations endpoints the overview reads (<c>Console:Workers:N:Name</c> and <c>:Url</c>): readiness and
    /// circuit breakers, each within 300 ms. None: the overview shows no workers.
    /// </summary>
    public List<ConsoleWorkerOptions> Workers { get; set; } = [];
}
