using System.CommandLine;
using Microsoft.Extensions.Configuration;
using Notifications.Admin.Migrations;
using Notifications.Admin.Status;

namespace Notifications.Admin;

/// <summary>
/// The command tree: <c>status</c>, <c>dead-letters list|show|requeue</c>, <c>purge outbox|dead-letters</c>,
/// <c>show &lt;id&gt;</c>, <c>find &lt;text&gt;</c>, <c>cleanup</c>, <c>suppression add|remove|list</c>, <c>templates put|list|preview</c>,
/// <c>webhooks add|list|disable|enable|rotate-secret</c>, <c>categories put|list</c>, <c>subscribers show|opt-out|opt-in|delete</c>, <c>topics list</c>,
/// <c>migrate</c>.
/// Every command has --help; bad arguments exit 2, unreachable services 3, a failed or declined operation 1.
/// </summary>
internal static class AdminApp
{
    public static readonly Option<string?> RabbitMqOption = new("--rabbitmq")
    {
        Description = "AMQP URI of the broker (default: RabbitMq:Uri from appsettings.json or RabbitMq__Uri)",
        Recursive = true,
    };

    public static readonly Option<string?> DatabaseOption = new("--database")
    {
        Description = "Database connection string (default: Database:ConnectionString or Database__ConnectionString)",
        Recursive = true,
    };

    public static async Task<int> RunAsync(
        string[] args, AdminConsole console, IReadOnlyDictionary<string, string?>? settings = null, CancellationToken cancellationToken = default)
    {
        var root = new RootCommand("Notifications admin: status, one notification's status (show), dead letters, purge, retention cleanup, the suppression list, templates, webhook endpoints, the audience registry (categories, subscribers, topics), database migrations (migrate). Configuration as the workers read it (appsettings.json, RabbitMq__Uri, Database__ConnectionString, ...).");
        root.Options.Add(RabbitMqOption);
        root.Options.Add(DatabaseOption);
        Func<ParseResult, AdminContext> context = parsed => new AdminContext(Configuration(parsed, settings));
        root.Subcommands.Add(StatusCommand.Create(context, console));
        root.Subcommands.Add(DeadLetterCommands.Create(context, console));
        root.Subcommands.Add(PurgeCommand.Create(context, console));
        root.Subcommands.Add(ShowCommand.Create(context, console));
        root.Subcommands.Add(FindCommand.Create(context, console));
        root.Subcommands.Add(CleanupCommand.Create(context, console));
        root.Subcommands.Add(SuppressionCommands.Create(context, console));
        root.Subcommands.Add(TemplateCommands.Create(context, console));
        root.Subcommands.Add(WebhookCommands.Create(context, console));
        root.Subcommands.Add(CategoryCommands.Create(context, console));
        root.Subcommands.Add(SubscriberCommands.Create(context, console));
        root.Subcommands.Add(TopicCommands.Create(context, console));
        root.Subcommands.Add(MigrateCommand.Create(context, console));

        // No response files: '@example.com' is a domain to suppress, not a file of arguments to read.
        var parsed = root.Parse(args, new ParserConfiguration { ResponseFileTokenReplacer = null });
        if (parsed.Errors.Count > 0)
        {
            foreach (var error in parsed.Errors)
            {
                await console.Error.WriteLineAsync($"error: {error.Message}");
            }

            await console.Error.WriteLineAsync($"Run '{string.Join(' ', CommandPath(parsed))} --help' for usage.");
            return ExitCodes.Usage;
        }

        try
        {
            return await parsed.InvokeAsync(
                new InvocationConfiguration { Output = console.Out, Error = console.Error, EnableDefaultExceptionHandler = false },
                cancellationToken);
        }
        catch (AdminException ex)
        {
            await console.Error.WriteLineAsync($"error: {ex.Message}");
            return ex.ExitCode;
        }
    }

    private static IConfiguration Configuration(ParseResult parsed, IReadOnlyDictionary<string, string?>? settings)
    {
        var overrides = new Dictionary<string, string?>();
        if (parsed.GetValue(RabbitMqOption) is { } uri)
        {
            overrides["RabbitMq:Uri"] = uri;
        }

        if (parsed.GetValue(DatabaseOption) is { } database)
        {
            overrides["Database:ConnectionString"] = database;
        }

        return new ConfigurationBuilder()
            .SetBasePath(AppContext.BaseDirectory)
            .AddJsonFile("appsettings.json", optional: true)
            .AddEnvironmentVariables()
            // Docker secrets, as the workers read them: /run/secrets/RabbitMq__Uri is RabbitMq:Uri (scripts/swarm admin).
            .AddKeyPerFile("/run/secrets", optional: true)
            .AddInMemoryCollection(settings ?? new Dictionary<string, string?>())
            .AddInMemoryCollection(overrides)
            .Build();
    }

    private static IEnumerable<string> CommandPath(ParseResult parsed)
    {
        var names = new List<string>();
        for (var result = parsed.CommandResult; result is not null; result = result.Parent as System.CommandLine.Parsing.CommandResult)
        {
            names.Insert(0, result.Parent is null ? "admin" : result.Command.Name);
        }

        return names;
    }
}
