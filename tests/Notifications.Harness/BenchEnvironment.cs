namespace Notifications.Harness;

/// <summary>Endpoints and paths, from the variables scripts/bench exports (scripts/setup's .run/services.env).</summary>
internal sealed record BenchEnvironment(string RepoRoot, string Postgres, Uri RabbitMq, string SmtpSink, string OutputDirectory)
{
    public string ConsumerDll => Path.Combine(RepoRoot, "Consumer/bin/Release/net10.0/Notifications.Consumer.dll");

    /// <summary>The original experiment's consumer (<c>run --baseline</c>), built by scripts/bench.</summary>
    public string BaselineDll => Path.Combine(RepoRoot, "tests/Notifications.Baseline/bin/Release/net10.0/Notifications.Baseline.dll");

    /// <summary>The live channel's gateway (<c>live</c>), built by scripts/bench.</summary>
    public string GatewayDll => Path.Combine(RepoRoot, "Gateway/bin/Release/net10.0/Notifications.Gateway.dll");

    public string ProducerDll => Path.Combine(RepoRoot, "Producer/bin/Release/net10.0/Notifications.Producer.dll");

    /// <summary>The admin tool (registers a webhook run's endpoint), built by scripts/bench.</summary>
    public string AdminDll => Path.Combine(RepoRoot, "Admin/bin/Release/net10.0/Notifications.Admin.dll");

    /// <summary>This harness, which also runs the HTTP receivers as processes of their own (<c>receiver webhook|push</c>).</summary>
    public static string HarnessDll => typeof(BenchEnvironment).Assembly.Location;

    /// <summary>
    /// The broker and database settings every process of a run gets (workers, the admin tool). The database login is
    /// the process's role's (docs/security.md): NOTIFICATIONS_BENCH_POSTGRES_PRODUCER, _CONSUMER, _ADMIN, _GATEWAY (scripts/bench
    /// sets them), else the owner's NOTIFICATIONS_BENCH_POSTGRES.
    /// </summary>
    /// <remarks>
    /// With <c>BENCH_TLS</c> (scripts/bench) the workers' broker URI is NOTIFICATIONS_BENCH_WORKER_RABBITMQ (amqps) and they
    /// trust NOTIFICATIONS_BENCH_WORKER_CA (<c>RabbitMq:CaCertificate</c>); the harness's own connection stays as it is.
    /// </remarks>
    public Dictionary<string, string> ServiceVariables(string queue, string role)
    {
        var variables = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["RabbitMq__Uri"] = Variable("NOTIFICATIONS_BENCH_WORKER_RABBITMQ") ?? RabbitMq.ToString(),
            ["RabbitMq__Exchange"] = queue,
            ["RabbitMq__Queue"] = queue,
            ["Database__Provider"] = "Postgres",
            ["Database__ConnectionString"] = Variable($"NOTIFICATIONS_BENCH_POSTGRES_{role.ToUpperInvariant()}") ?? Postgres,
            ["Database__Schema"] = "notifications",
        };
        if (Variable("NOTIFICATIONS_BENCH_WORKER_CA") is { } ca)
        {
            variables["RabbitMq__CaCertificate"] = ca;
        }

        return variables;
    }

    private static string? Variable(string name) => Environment.GetEnvironmentVariable(name) is { Length: > 0 } value ? value : null;

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
