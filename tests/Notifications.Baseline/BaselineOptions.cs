using System.Globalization;
using MailKit.Security;
using Microsoft.Extensions.Configuration;
using Notifications.Shared.Hosting;

namespace Notifications.Baseline;

/// <summary>
/// The baseline's settings, read from the same keys the benchmark harness gives the project's consumer
/// (environment variables <c>Section__Key</c> or <c>--Section:Key=value</c>); an invalid one is an error naming the key.
/// </summary>
internal sealed record BaselineOptions
{
    public required RabbitMqOptions RabbitMq { get; init; }

    public required string ConnectionString { get; init; }

    public required string Schema { get; init; }

    /// <summary>The NotificationSenders: one channel and one consumer each.</summary>
    public required int Senders { get; init; }

    /// <summary>BasicQos prefetch count of each sender's channel.</summary>
    public required ushort Prefetch { get; init; }

    /// <summary>The killswitch: stop this long after the first delivery (null: run until SIGTERM).</summary>
    public TimeSpan? RunFor { get; init; }

    public string? StatsFile { get; init; }

    public required string SmtpHost { get; init; }

    public required int SmtpPort { get; init; }

    public required SecureSocketOptions SmtpSecurity { get; init; }

    public required string SmtpFrom { get; init; }

    public const string Help = """
        Notifications.Baseline — the original experiment's consumer, as a baseline for the benchmark harness

        Usage: dotnet Notifications.Baseline.dll [--Section:Key=value ...]

        The algorithm of the original article's "Producer-Consumer" part (docs/benchmarks/README.md): one RabbitMQ
        connection (MessageConsumer) and N NotificationSenders, each with its own channel, BasicQos(0, prefetch,
        false) and one consumer. Each message, strictly in sequence on its sender: deserialize the JSON, SELECT
        the delivery log row by id (skip the send if it says 'sent'), send the e-mail with MailKit over the
        sender's SMTP connection, INSERT the delivery log row, BasicAck that one delivery tag.

        Configuration (environment variables Section__Key, or --Section:Key=value):
          RabbitMq:Uri                 amqp URI with the virtual host (required)
          RabbitMq:Queue               work queue (notifications); RabbitMq:Exchange (notifications); the rest
                                       of the section as for the project's workers (QueueType, RetryDelays)
          Database:ConnectionString    PostgreSQL (required); Database:Schema (notifications)
          Database:MaxPoolSize         pooled connections shared by the senders (40: PostgreSQL allows 100 in all)
          Consumer:Handlers            number of NotificationSenders (192, the original's largest)
          Consumer:Prefetch            prefetch per sender's channel (100, as in the original)
          Consumer:RunFor              killswitch, e.g. 00:01:00: stop that long after the first message
          Consumer:StatsFile           JSON report written on exit (delivered, windowDelivered, latency...)
          Smtp:Host (127.0.0.1)  Smtp:Port (25)  Smtp:Security (None|Auto|StartTls|StartTlsWhenAvailable|SslOnConnect)
          Smtp:From (notifications@localhost)

        Prints "Consumer started" once every sender consumes; runs until the killswitch, SIGTERM or Ctrl+C,
        finishes the message in hand on each sender and exits 0. Exit code 2: invalid configuration;
        1: the broker or the database could not be reached at the start.
        A message that cannot be read or addressed goes to the dead-letter queue ({Queue}.dead) with its reason
        in the x-dead-reason header; a failed send or database call puts it back in the queue.
        """;

    public static BaselineOptions Read(IConfiguration configuration)
    {
        var database = new Npgsql.NpgsqlConnectionStringBuilder(Required(configuration, "Database:ConnectionString"))
        {
            MaxPoolSize = Int(configuration, "Database:MaxPoolSize", 40, 1, 1000),
        };
        var uri = Required(configuration, "RabbitMq:Uri");
        if (!Uri.TryCreate(uri, UriKind.Absolute, out var parsed) || parsed.Scheme is not ("amqp" or "amqps"))
        {
            throw new ArgumentException($"RabbitMq:Uri '{uri}' is not an amqp:// URI");
        }

        // The whole section as the project's workers read it (queue type, retry delays): the queues this
        // process declares must have the same arguments as theirs.
        var rabbit = new RabbitMqOptions();
        try
        {
            configuration.GetSection(RabbitMqOptions.SectionName).Bind(rabbit);
            // As the workers do: configured delays replace the defaults (the binder would append to them).
            var delays = configuration.GetSection("RabbitMq:RetryDelays");
            if (delays.GetChildren().Any())
            {
                rabbit.RetryDelays = delays.Get<TimeSpan[]>() ?? [];
            }
        }
        catch (InvalidOperationException ex)
        {
            throw new ArgumentException($"RabbitMq: {ex.Message}", ex);
        }

        return new BaselineOptions
        {
            RabbitMq = rabbit,
            ConnectionString = database.ConnectionString,
            Schema = configuration["Database:Schema"] ?? "notifications",
            Senders = Int(configuration, "Consumer:Handlers", 192, 1, 4096),
            Prefetch = (ushort)Int(configuration, "Consumer:Prefetch", 100, 1, ushort.MaxValue),
            RunFor = configuration["Consumer:RunFor"] is { Length: > 0 } runFor ? Duration("Consumer:RunFor", runFor) : null,
            StatsFile = configuration["Consumer:StatsFile"] is { Length: > 0 } stats ? stats : null,
            SmtpHost = configuration["Smtp:Host"] ?? "127.0.0.1",
            SmtpPort = Int(configuration, "Smtp:Port", 25, 1, 65535),
            SmtpSecurity = Enum.TryParse(configuration["Smtp:Security"] ?? "None", ignoreCase: true, out SecureSocketOptions security)
                ? security
                : throw new ArgumentException($"Smtp:Security '{configuration["Smtp:Security"]}' is not one of {string.Join(", ", Enum.GetNames<SecureSocketOptions>())}"),
            SmtpFrom = configuration["Smtp:From"] ?? "notifications@localhost",
        };
    }

    private static string Required(IConfiguration configuration, string key) =>
        configuration[key] is { Length: > 0 } value ? value : throw new ArgumentException($"{key} is required");

    private static int Int(IConfiguration configuration, string key, int fallback, int min, int max)
    {
        string? value = configuration[key];
        if (string.IsNullOrEmpty(value))
        {
            return fallback;
        }

        return int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out int parsed) && parsed >= min && parsed <= max
            ? parsed
            : throw new ArgumentException($"{key} '{value}' must be a whole number from {min} to {max}");
    }

    private static TimeSpan Duration(string key, string value) =>
        TimeSpan.TryParse(value, CultureInfo.InvariantCulture, out var parsed) && parsed > TimeSpan.Zero
            ? parsed
            : throw new ArgumentException($"{key} '{value}' must be a positive time span such as 00:01:00");
}
