// The OpenAPI document the contract tests check against (docs/contract.md): path, query and header parameters
// with types, a bound and an enum, a required JSON request body, nullable fields (3.0), and two media types.
export const PETS_OPENAPI = `openapi: 3.0.3
info:
  title: Pets
  version: 1.0.0
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - name: limit
          in: query
          schema: { type: integer, maximum: 100 }
      responses:
        '200':
          description: the pets
          content:
            application/json:
              schema:
                type: array
                items: { $ref: '#/components/schemas/Pet' }
              example: [{ id: 1, name: Rex, tag: null }]
    post:
      operationId: createPet
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewPet' }
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
              example: { id: 2, name: Tom, tag: cat }
  /pets/{petId}:
    parameters:
      - name: petId
        in: path
        required: true
        schema: { type: integer, minimum: 1 }
        example: 1
    get:
      operationId: showPetById
      parameters:
        - name: X-Request-Id
          in: header
          required: true
          schema: { type: string, format: uuid }
          example: 3f2c8a2e-6a8e-4a57-9d2a-1d6a3c1e8b11
        - name: view
          in: query
          schema: { type: string, enum: [short, full] }
      responses:
        '200':
          description: one pet
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
              example: { id: 1, name: Rex, tag: null }
        '404':
          description: no such pet
          content:
            application/problem+json:
              schema: { $ref: '#/components/schemas/Problem' }
              example: { title: no such pet, status: 404 }
  /stores/{storeId}/stock:
    get:
      operationId: storeStock
      parameters:
        - name: storeId
          in: path
          required: true
          schema: { type: string }
          example: north
      responses:
        '200':
          description: the stock
          content:
            application/json:
              schema: { type: object, required: [count], properties: { count: { type: integer } } }
              example: { count: 3 }
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: { type: integer, format: int64 }
        name: { type: string }
        tag: { type: string, nullable: true }
    NewPet:
      type: object
      required: [name]
      additionalProperties: false
      properties:
        name: { type: string, minLength: 1 }
        tag: { type: string, nullable: true }
    Problem:
      type: object
      required: [title, status]
      properties:
        title: { type: string }
        status: { type: integer }
`;
