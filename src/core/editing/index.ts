export { applyEdit, describeEdit, EditError, type EditCommand, type Applied } from './commands.js';
export { EditHistory } from './history.js';
