using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Shared.Bounces;

namespace Notifications.Shared.Hosting;

/// <summary>DI wiring of the signed return paths, for the process that sends with them (consumer) and the one that reads them (bounces).</summary>
public static class ReturnPathHostingExtensions
{
    /// <summary>
    /// Validated <see cref="ReturnPathOptions"/> from section <c>Bounces</c>, and a <see cref="ReturnPath"/> over them
    /// (resolving it throws when no bounce domain is configured: check <see cref="ReturnPathOptions.IsConfigured"/> first).
    /// </summary>
    public static IServiceCollection AddReturnPath(this IServiceCollection services)
    {
        services.AddOptions<ReturnPathOptions>().BindConfiguration(ReturnPathOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<ReturnPathOptions>, ReturnPathOptionsValidator>();
        services.AddSingleton(sp => new ReturnPath(sp.GetRequiredService<IOptions<ReturnPathOptions>>().Value));
        return services;
    }
}
