namespace Notifications.Harness;

/// <summary>Endpoints and paths, from the variables scripts/bench exports (scripts/setup's .run/services.env).</summary>
internal sealed record BenchEnvironment(string RepoRoot, string Postgres, Uri RabbitMq, string SmtpSink, string OutputDirectory)
{
    public string ConsumerDll => Path.Combine(RepoRoot, "Consumer/bin/Release/net10.0/Notifications.Consumer.dll");

    /// <summary>The original experiment's consumer (<c>run --baseline</c>), built by scripts/bench.</summary>
    public string BaselineDll => Path.Combine(RepoRoot, "tests/Notifications.Baseline/bin/Release/net10.0/Notifications.Baseline.dll");

    public string ProducerDll => Path.Combine(RepoRoot, "Producer/bin/Release/net10.0/Notifications.Producer.dll");

    /// <summary>The admin tool (registers a webhook run's endpoint), built by scripts/bench.</summary>
    public string AdminDll => Path.Combine(RepoRoot, "Admin/bin/Release/net10.0/Notifications.Admin.dll");

    /// <summary>This harness, which also runs the HTTP receivers as processes of their own (<c>receiver webhook|push</c>).</summary>
    public static string HarnessDll => typeof(BenchEnvironment).Assembly.Location;

    /// <summary>
    /// The broker and database settings every process of a run gets (workers, the admin tool). The database login is
    /// the process's role's (docs/security.md): NOTIFICATIONS_BENCH_POSTGRES_PRODUCER, _CONSUMER, _ADMIN (scripts/bench
    /// sets them), else the owner's NOTIFICATIONS_BENCH_POSTGRES.
    /// </summary>
    public Dictionary<string, string> ServiceVariables(string queue, string role) => new(StringComparer.Ordinal)
    {
        ["RabbitMq__Uri"] = RabbitMq.ToString(),
        ["RabbitMq__Exchange"] = queue,
        ["RabbitMq__Queue"] = queue,
        ["Database__Provider"] = "Postgres",
        ["Database__ConnectionString"] = Environment.GetEnvironmentVariable($"NOTIFICATIONS_BENCH_POSTGRES_{role.ToUpperInvariant()}") is { Length: > 0 } login ? login : Postgres,
        ["Database__Schema"] = "notifications",
    };

    public static BenchEnvironment FromVariables(HarnessOptions options)
    {
        string root = Directory.GetCurrentDirectory();
        string postgres = Environment.GetEnvironmentVariable("NOTIFICATIONS_BENCH_POSTGRES")
            ?? throw new InvalidOperationException("NOTIFICATIONS_BENCH_POSTGRES is not set (scripts/bench sets it)");
        var rabbit = new Uri(Environment.GetEnvironmentVariable("RabbitMq__Uri") ?? "amqp://notifications:notifications@127.0.0.1:5672/");
        string sink = Environment.GetEnvironmentVariable("NOTIFICATIONS_TEST_SMTP_SINK") ?? "/usr/sbin/smtp-sink";
        string output = Path.GetFullPath(options.Output, root);
        Directory.CreateDirectory(output);
        return new BenchEnvironment(root, postgres, rabbit, sink, output);
    }
}
