// The answer to the server's workspace/configuration requests (a languageclient middleware),
// kept free of vscode-languageclient so that it can be tested alone.
import { SECTION, type ServerSettings } from './settings';

export interface ConfigurationItem {
    scopeUri?: string;
    section?: string;
}

/**
 * The server asks for the `gradguard` section per folder: it gets the settings it understands
 * (with the interpreter for jedi when that is needed), never the launch settings. Requests for
 * other sections go to the client's default handler.
 */
export function answerConfiguration<R>(
    items: ConfigurationItem[],
    serverSettings: (scopeUri?: string) => ServerSettings,
    next: () => R,
): (ServerSettings | null)[] | R {
    if (!items.some((item) => item.section === SECTION)) {
        return next();
    }
    return items.map((item) => (item.section === SECTION ? serverSettings(item.scopeUri) : null));
}
